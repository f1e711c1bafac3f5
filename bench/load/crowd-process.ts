// The bench's handle on a crowd of spectators running in a child process (./crowd.ts).
import { fork } from "node:child_process";
import { join } from "node:path";
import type { CrowdCommand, CrowdReport } from "./crowd";

type Without<T> = T extends unknown ? Omit<T, "id"> : never;
export type OpenResult = { opened: number; live: number; failures: number; samples: string[] };

export type Crowd = {
  /** Opens `count` spectators of `podId` from `afterSeq`, `concurrency` handshakes at a time; resolves once they are live (or 60 s). */
  open: (o: {
    base: string;
    token: string;
    podId: string;
    afterSeq: number;
    count: number;
    concurrency?: number;
  }) => Promise<OpenResult>;
  /** Starts the crowd's CPU clock. */
  measure: () => Promise<void>;
  /** Resolves once every open spectator has seq `head` (or is closed), or after `timeoutMs`. */
  waitFor: (head: number, timeoutMs: number) => Promise<void>;
  report: (head: number) => Promise<CrowdReport>;
  /** Closes every spectator (the process stays for the next crowd). */
  closeAll: () => Promise<void>;
  stop: () => void;
};

export function startCrowd(): Crowd {
  const child = fork(join(import.meta.dirname, "crowd.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let nextId = 0;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  child.on("message", (m: { id: number; result?: unknown; error?: string }) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.error !== undefined) w?.reject(new Error(`crowd: ${m.error}`));
    else w?.resolve(m.result);
  });
  child.once("exit", (code) => {
    for (const w of waiting.values()) w.reject(new Error(`the crowd process exited (${code})`));
    waiting.clear();
  });
  const ask = <T>(c: Without<CrowdCommand>) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...c, id });
    });
  return {
    open: (o) => ask<OpenResult>({ type: "open", concurrency: 32, ...o }),
    measure: () => ask<void>({ type: "measure" }),
    waitFor: (head, timeoutMs) => ask<void>({ type: "wait", head, timeoutMs }),
    report: (head) => ask<CrowdReport>({ type: "report", head }),
    closeAll: () => ask<void>({ type: "close" }),
    stop: () => void child.kill(),
  };
}

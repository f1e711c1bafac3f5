// How fast the load generator itself can go: the single-event request shape (same head, same
// ~170-byte note, 32 keep-alive connections) against a bare node http server in its own process
// (./bare-server.ts). On this bench's 2 cores the generator and the server it loads share the CPU,
// so a podwatch figure near this ceiling would measure the generator, not podwatch.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import type { Figure } from "../figures";
import { note } from "../http";
import { dealRequests, rawPost, runKeepAliveClients } from "./keep-alive-clients";
import { loadFigureNote } from "./load-figure-note";

const REQUESTS = 100_000;
const CLIENTS = 32;
// As long as a real pod id and agent token: the same request bytes as the single-event figure.
const POD = randomUUID();
const TOKEN = `pw_${randomBytes(32).toString("base64url")}`;

export async function generatorCeiling(): Promise<Figure> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "bare-server.ts")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (d) => {
        const port = /listening on (\d+)/.exec((out += d))?.[1];
        if (port) resolve(Number(port));
      });
      child.once("exit", (code) => reject(new Error(`the bare server exited (${code}) before listening`)));
    });
    const requests = Array.from({ length: REQUESTS }, (_, i) =>
      rawPost(port, `/api/v1/pods/${POD}/events`, TOKEN, JSON.stringify(note(i))),
    );
    const r = await runKeepAliveClients({
      port,
      perClient: dealRequests(requests, CLIENTS),
      expectStatus: 201,
      serverPid: child.pid,
    });
    return {
      key: "generator-ceiling",
      label: `load generator ceiling vs a bare node http server (single-event POSTs, ${CLIENTS} keep-alive connections)`,
      value: r.errors ? null : Math.round(r.perSecond),
      unit: "req/s",
      // Which side is the limit: the generator's CPU per request says how fast it could go on a core of its own.
      note: `${loadFigureNote(r)} (alone on a core: ~${Math.round(1e6 / r.cpuMicrosPerRequest / 1000)}k req/s)`,
    };
  } finally {
    child.stdin!.end();
    child.kill();
  }
}

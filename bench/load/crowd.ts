// A crowd of spectators in a process of its own (forked by ./crowd-process.ts), so that the
// poster and the latency probe are never delayed by thousands of sockets' reads, and so that
// the crowd's own CPU time can be told apart from the server's. Commands come over IPC.
import { openSpectator, type Spectator } from "./spectator";

export type CrowdCommand =
  | {
      id: number;
      type: "open";
      base: string;
      token: string;
      podId: string;
      afterSeq: number;
      count: number;
      concurrency: number;
    }
  | { id: number; type: "measure" }
  | { id: number; type: "wait"; head: number; timeoutMs: number }
  | { id: number; type: "report"; head: number }
  | { id: number; type: "close" };

export type CrowdReport = {
  spectators: number;
  /** Received every event after where it subscribed up to `head`, in order, once each, with no error or disconnection. */
  complete: number;
  gaps: number;
  duplicates: number;
  disconnected: number;
  errors: number;
  samples: string[];
  framesPerSpectator: number;
  /** Change notices of the pod's view ("pod:delta") per spectator: each costs a write per socket as a frame does. */
  noticesPerSpectator: number;
  /** CPU the crowd process spent since "measure", and the wall time since then. */
  cpuMs: number;
  wallMs: number;
};

let crowd: { spectator: Spectator; afterSeq: number }[] = [];
let measuredFrom = { cpu: process.cpuUsage(), at: performance.now() };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function open(c: Extract<CrowdCommand, { type: "open" }>) {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: c.concurrency }, async () => {
      while (next < c.count) {
        next++;
        await openSpectator(c.base, { token: c.token, podId: c.podId, afterSeq: c.afterSeq }).then(
          (spectator) => void crowd.push({ spectator, afterSeq: c.afterSeq }),
          (e: Error) => void failures.push(e.message),
        );
      }
    }),
  );
  // Subscribed is not yet live: wait for every tape:live (bounded), so measuring starts with all of them joined.
  for (
    const deadline = Date.now() + 60_000;
    crowd.some((s) => !s.spectator.state.live && !s.spectator.state.closed) && Date.now() < deadline;
  )
    await sleep(20);
  return {
    opened: crowd.length,
    live: crowd.filter((s) => s.spectator.state.live).length,
    failures: failures.length,
    samples: failures.slice(0, 3),
  };
}

function report(head: number): CrowdReport {
  const states = crowd.map((s) => ({ ...s.spectator.state, afterSeq: s.afterSeq }));
  const samples = [...new Set(states.flatMap((s) => [...s.errors, ...(s.closed ? [s.closed] : [])]))].slice(
    0,
    5,
  );
  const complete = states.filter(
    (s) =>
      s.received === head - s.afterSeq &&
      s.last === head &&
      !s.gaps &&
      !s.duplicates &&
      !s.errors.length &&
      !s.closed,
  ).length;
  const cpu = process.cpuUsage(measuredFrom.cpu);
  return {
    spectators: states.length,
    complete,
    gaps: states.reduce((n, s) => n + s.gaps, 0),
    duplicates: states.reduce((n, s) => n + s.duplicates, 0),
    disconnected: states.filter((s) => s.closed).length,
    errors: states.reduce((n, s) => n + s.errors.length, 0),
    samples,
    framesPerSpectator: states.length ? states.reduce((n, s) => n + s.frames, 0) / states.length : 0,
    noticesPerSpectator: states.length ? states.reduce((n, s) => n + s.notices, 0) / states.length : 0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    wallMs: performance.now() - measuredFrom.at,
  };
}

async function handle(c: CrowdCommand): Promise<unknown> {
  switch (c.type) {
    case "open":
      return open(c);
    case "measure":
      return void (measuredFrom = { cpu: process.cpuUsage(), at: performance.now() });
    case "wait":
      for (
        const deadline = Date.now() + c.timeoutMs;
        crowd.some((s) => s.spectator.state.last < c.head && !s.spectator.state.closed) &&
        Date.now() < deadline;
      )
        await sleep(20);
      return;
    case "report":
      return report(c.head);
    case "close":
      for (const s of crowd) s.spectator.close();
      return void (crowd = []);
  }
}

process.on("message", (c: CrowdCommand) => {
  handle(c).then(
    (result) => process.send!({ id: c.id, result }),
    (e: Error) => process.send!({ id: c.id, error: e.message }),
  );
});
process.on("disconnect", () => process.exit(0)); // the bench went away: never linger

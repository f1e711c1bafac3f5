// npm run soak: the real server (its own process, temp SQLite database) under a
// steady load for SOAK_MINUTES (default 10): SOAK_RATE events/s (default 1000)
// appended by agents over HTTP, SOAK_SOCKETS live sockets (default 200) on
// share links watching, and SOAK_STALLED more sockets (default 4) every 30 s
// that subscribe and never read (the server must drop them: its connection
// count stays flat). Live sockets also reconnect now and then and
// resume from their last seq. Prints the server's memory and event-loop delay
// every minute, then errors and lost events: every acknowledged seq must reach
// every live socket, in order, and every tape must verify. 127.0.0.1 only;
// requests in flight and the run's length are bounded; exits 1 on any loss or error.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { io, type Socket } from "socket.io-client";
import { SPAWN_ADMIN_TOKEN } from "../server/testing/spawn-server";
import { openStalledSocket, type StalledSocket } from "../server/testing/stalled-socket";
import type { ClientToServerEvents, ServerToClientEvents } from "../server/wire/socket";
import { agent, createPod, get, note, post } from "./http";
import type { ServerStats } from "./soak-server";

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const MINUTES = Math.max(1, Math.round(num("SOAK_MINUTES", 10))); // whole minutes: one figure a minute
const RATE = num("SOAK_RATE", 1000);
const SOCKETS = num("SOAK_SOCKETS", 200);
const STALLED = num("SOAK_STALLED", 4);
const PODS = 4;
const MAX_IN_FLIGHT = 32; // the agent's own pool: requests never queue up behind it
const BATCH = 10; // every other request carries this many events; the rest carry one

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;
const errors = { http: 0, socket: 0, samples: [] as string[] };
const fail = (kind: "http" | "socket", what: string) => (
  errors[kind]++,
  errors.samples.length < 5 && errors.samples.push(what)
);

type Watcher = {
  podId: string;
  last: number;
  gaps: number;
  drops: number;
  socket: Socket<ServerToClientEvents, ClientToServerEvents>;
};

/** A spectator as the browser is one: acknowledges pages, drops duplicates, resubscribes from what it has on a gap or a reconnect. */
function watch(base: string, podId: string, token: string): Watcher {
  const socket: Watcher["socket"] = io(base, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token },
    reconnectionDelayMax: 2000,
  });
  const w: Watcher = { podId, last: 0, gaps: 0, drops: 0, socket };
  const subscribe = () => socket.emit("tape:subscribe", { podId, afterSeq: w.last });
  socket.on("connect", subscribe);
  socket.on("disconnect", (reason) => reason !== "io client disconnect" && w.drops++);
  socket.on("connect_error", (e) => fail("socket", `connect_error: ${e.message}`));
  socket.on("tape:error", (e) => fail("socket", `tape:error: ${e.message}`));
  socket.on("tape:events", (frame, ack) => {
    ack?.();
    for (const e of frame.events) {
      if (e.seq <= w.last) continue;
      if (e.seq !== w.last + 1) return void (w.gaps++, subscribe());
      w.last = e.seq;
    }
  });
  return w;
}

async function startServer(dir: string) {
  const child = fork(join(import.meta.dirname, "soak-server.ts"), [], {
    execArgv: ["--import", "tsx"],
    env: {
      ...process.env,
      DATABASE_URL: `file:${join(dir, "soak.db")}`,
      PORT: "0",
      HOST: "127.0.0.1",
      PODWATCH_WEB: "0",
      PODWATCH_DEMO: "0",
      PODWATCH_ADMIN_TOKEN: SPAWN_ADMIN_TOKEN,
      PODWATCH_AUTH_SECRET: "soak-secret-".padEnd(40, "x"),
    },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not answer "${type}"`)), 120_000);
      const on = (m: { type: string }) =>
        m.type === type && (clearTimeout(timer), child.off("message", on), resolve(m as T));
      child.on("message", on);
    });
  const { url } = await next<{ url: string }>("ready");
  const stats = () => (child.send("stats"), next<{ stats: ServerStats }>("stats").then((m) => m.stats));
  const stop = () =>
    new Promise<void>((resolve) => (child.once("exit", () => resolve()), child.send("stop")));
  return { url, stats, stop };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-soak-"));
  const server = await startServer(dir);
  const base = server.url;
  const stalled: StalledSocket[] = [];
  const watchers: Watcher[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    const pods: { podId: string; token: string; share: string; acked: number }[] = [];
    for (let i = 0; i < PODS; i++) {
      const pod = await createPod(base, `soak-${i}`);
      const link = JSON.parse((await post(`${base}/api/v1/pods/${pod.podId}/share-links`, "{}")).text) as {
        token: string;
      };
      pods.push({ ...pod, share: link.token, acked: 0 });
    }
    for (const pod of pods)
      pod.acked = (
        JSON.parse((await get(`${base}/api/v1/pods/${pod.podId}`)).text) as { eventCount: number }
      ).eventCount;
    for (let i = 0; i < SOCKETS; i++)
      watchers.push(watch(base, pods[i % PODS]!.podId, pods[i % PODS]!.share));
    for (const w of watchers)
      if (!w.socket.connected) await new Promise<void>((r) => w.socket.once("connect", () => r()));
    console.log(
      `podwatch soak: ${MINUTES} min at ${RATE} events/s, ${SOCKETS} live sockets, ${STALLED} stalled, ${PODS} pods, server ${base}\n`,
    );

    // Load: a paced issuer, at most MAX_IN_FLIGHT requests outstanding.
    let issued = 0;
    let inFlight = 0;
    let requests = 0;
    const start = Date.now();
    const send = async (pod: (typeof pods)[number], n: number) => {
      inFlight++;
      try {
        const body = JSON.stringify(
          n === 1 ? note(issued) : { events: Array.from({ length: n }, (_, j) => note(issued + j)) },
        );
        const r = await post(`${base}/api/v1/pods/${pod.podId}/events`, body, pod.token);
        if (r.status !== 201) return fail("http", `POST events → ${r.status} ${r.text.slice(0, 200)}`);
        for (const e of (JSON.parse(r.text) as { events: { seq: number }[] }).events)
          pod.acked = Math.max(pod.acked, e.seq);
      } catch (e) {
        fail("http", `POST events: ${(e as Error).message}`);
      } finally {
        inFlight--;
      }
    };
    timers.push(
      setInterval(() => {
        const due = Math.floor((RATE * (Date.now() - start)) / 1000);
        while (issued < due && inFlight < MAX_IN_FLIGHT) {
          const n = requests++ % 2 ? Math.min(BATCH, due - issued) : 1;
          void send(pods[requests % PODS]!, n);
          issued += n;
        }
      }, 10),
    );
    // Stalled sockets, more every 30 s, never closed by us: half from seq 0 (backlog), half from the head (live).
    const stall = async () => {
      for (let i = 0; i < STALLED; i++) {
        const pod = pods[i % PODS]!;
        stalled.push(
          await openStalledSocket(base, {
            token: pod.share,
            podId: pod.podId,
            afterSeq: i % 2 ? pod.acked : 0,
          }).catch((e) => (fail("socket", `stalled: ${e.message}`), { destroy: () => {} })),
        );
      }
    };
    await stall();
    timers.push(setInterval(() => void stall(), 30_000));
    // Churn: a few live sockets reconnect every 10 s and resume from their last seq.
    timers.push(
      setInterval(() => {
        for (let i = 0; i < 4; i++)
          watchers[Math.floor(Math.random() * watchers.length)]!.socket.disconnect().connect();
      }, 10_000),
    );

    const samples: { minute: number; s: ServerStats }[] = [{ minute: 0, s: await server.stats() }];
    const line = (minute: number, s: ServerStats) =>
      console.log(
        `  min ${String(minute).padStart(2)}  rss ${mib(s.rss).padStart(8)}  heap ${mib(s.heapUsed).padStart(8)}  external ${mib(s.external).padStart(7)}  loop p99 ${s.loopP99Ms.toFixed(1).padStart(6)} ms (max ${s.loopMaxMs.toFixed(0)})  connections ${String(s.connections).padStart(4)}  events ${issued}  errors ${errors.http + errors.socket}`,
      );
    line(0, samples[0]!.s);
    for (let minute = 1; minute <= MINUTES; minute++) {
      await sleep(start + minute * 60_000 - Date.now());
      samples.push({ minute, s: await server.stats() });
      line(minute, samples.at(-1)!.s);
    }
    for (const t of timers.splice(0)) clearInterval(t);
    const elapsed = (Date.now() - start) / 1000;
    for (const deadline = Date.now() + 60_000; inFlight > 0 && Date.now() < deadline;) await sleep(50);

    // Every acknowledged event must reach every live socket, in order.
    const head = new Map(pods.map((p) => [p.podId, p.acked]));
    const behind = () => watchers.reduce((sum, w) => sum + Math.max(0, head.get(w.podId)! - w.last), 0);
    for (const deadline = Date.now() + 120_000; behind() > 0 && Date.now() < deadline;) await sleep(200);
    const verify = [];
    for (const pod of pods) {
      const check = JSON.parse((await get(`${base}/api/v1/pods/${pod.podId}/verify?full=1`)).text) as {
        ok: boolean;
        checked: number;
      };
      const count = (
        JSON.parse((await get(`${base}/api/v1/pods/${pod.podId}`)).text) as { eventCount: number }
      ).eventCount;
      verify.push(check.ok && check.checked === count && count === pod.acked);
    }
    const final = await server.stats();
    const at = (m: number) => samples.find((x) => x.minute === m)?.s;
    const from = at(Math.min(2, MINUTES)) ?? samples[0]!.s;
    const drift = ((final.rss - from.rss) / from.rss) * 100;
    const lost = behind();
    const gaps = watchers.reduce((n, w) => n + w.gaps, 0);
    console.log(`
  achieved        ${Math.round(issued / elapsed)} events/s (${issued} events, ${requests} requests)
  memory (RSS)    start ${mib(samples[0]!.s.rss)}, middle ${mib(at(Math.ceil(MINUTES / 2))!.rss)}, end ${mib(final.rss)}; minute ${Math.min(2, MINUTES)} → end ${drift >= 0 ? "+" : ""}${drift.toFixed(1)}%
  heap            start ${mib(samples[0]!.s.heapUsed)}, middle ${mib(at(Math.ceil(MINUTES / 2))!.heapUsed)}, end ${mib(final.heapUsed)}
  loop delay p99  ${final.overallLoopP99Ms.toFixed(1)} ms over the run
  connections     ${final.connections} open at the end (${SOCKETS} live sockets; ${stalled.length} stalled ones opened)
  errors          ${errors.http} HTTP, ${errors.socket} socket${errors.samples.length ? `\n                  ${errors.samples.join("\n                  ")}` : ""}
  lost events     ${lost} (sequence gaps seen: ${gaps}; live sockets dropped and resumed: ${watchers.reduce((n, w) => n + w.drops, 0)})
  tapes verify    ${verify.every(Boolean) ? "yes" : `NO (${verify.map(String).join(", ")})`}
`);
    if (lost || gaps || errors.http || errors.socket || !verify.every(Boolean)) process.exitCode = 1;
  } finally {
    for (const t of timers) clearInterval(t);
    for (const s of stalled) s.destroy();
    for (const w of watchers) w.socket.close();
    await server.stop();
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Spectators at scale: live tape sockets by the hundred and the thousand on one node.
//
//   npx tsx bench/spectators-only.ts [fan-out] [live] [catch-up]   (all three when none is named)
//
// starts the real server (its own process, temp SQLite database, full durability) and prints
// these figures alone; `npm run bench` includes them. Everything runs on this machine: the load
// generator shares the server's cores. Spectators are lean clients (bench/load/spectator.ts:
// Engine.IO/Socket.IO over a raw WebSocket, reading only seqs out of a frame's bytes), all but the
// latency probe in a child process of their own; the crowd's CPU is reported beside each figure.
//   - fan-out: 500 spectators (499 in the crowd + the probe, which joins last) on one pod while an
//     agent posts 1,000 single-event requests a second for 10 s, open loop. Latency = just before
//     the POST → the probe's receipt of the frame carrying the event.
//   - live: 2,000 spectators on one pod, 100 events/s for 10 s; a spectator counts if it got every
//     event in order, once, with no error or disconnection. Plus the server's RSS with them connected.
//   - catch-up: a spectator that missed 10,000 events subscribes from head - 10,000: time to tape:live,
//     every page parsed and acknowledged as the browser does. Median of 3.
import type { Figure } from "./figures";
import { pct } from "./http";
import { timeCatchUp } from "./load/catch-up";
import { startCrowd, type Crowd } from "./load/crowd-process";
import { watchWhilePosting, type WatchRun } from "./load/watch-while-posting";

export type SpectatorScenario = "fan-out" | "live" | "catch-up";
const SECONDS = 10;

const ms = (v: number) => Math.round(v * 100) / 100;
const pctOf = (v: number | null) => (v === null ? "n/a" : `${Math.round(v * 100)}% of a core`);

/** What a run cost and what went wrong, said once under its figures. */
function runNote(run: WatchRun): string {
  const { crowd, posted } = run;
  const framesTaken = crowd.framesPerSpectator * crowd.spectators;
  const perFrameUs = framesTaken ? (crowd.cpuMs * 1000) / framesTaken : 0;
  const lat = run.latencies.length
    ? `probe's POST → socket p50 ${ms(pct(run.latencies, 50))} / p99 ${ms(pct(run.latencies, 99))} ms, `
    : "";
  const perEvent =
    run.serverCores === null || !posted.rate
      ? ""
      : ` (${Math.round((run.serverCores * 1e6) / posted.rate)} µs per event posted)`;
  const answered = posted.answered.length
    ? `POST answered p50 ${ms(pct(posted.answered, 50))} / p99 ${ms(pct(posted.answered, 99))} ms`
    : "no POST answered";
  return [
    `${lat}${answered}`,
    `${posted.sent} events posted at ${Math.round(posted.rate)}/s (client lag up to ${Math.round(posted.maxLagMs)} ms, poster and probe CPU ${Math.round(posted.cpuMicrosPerRequest)} µs per request), POST errors ${posted.errors}`,
    `spectators opened ${run.opened.opened + (run.latencies.length ? 1 : 0)}, failed ${run.opened.failures}; gaps ${crowd.gaps}, duplicates ${crowd.duplicates}, disconnected ${crowd.disconnected}, errors ${crowd.errors}`,
    `${crowd.framesPerSpectator.toFixed(0)} frames and ${crowd.noticesPerSpectator.toFixed(0)} notices per spectator; server CPU ${pctOf(run.serverCores)}${perEvent}; crowd client CPU ${pctOf(crowd.cpuMs / crowd.wallMs)} (${perFrameUs.toFixed(1)} µs per frame received)`,
    ...[...posted.samples, ...run.opened.samples, ...crowd.samples].slice(0, 3),
  ].join("; ");
}

async function fanOut(base: string, crowd: Crowd, serverPid: number): Promise<Figure[]> {
  const run = await watchWhilePosting(base, crowd, serverPid, {
    name: "spectators-fan-out",
    spectators: 500,
    rate: 1000,
    seconds: SECONDS,
    probe: true,
  });
  const got = run.latencies.length;
  const lat = (p: number) => (got ? ms(pct(run.latencies, p)) : null);
  const probeNote = `probe got ${got}/${run.posted.sent} events; max ${got ? ms(run.latencies.at(-1)!) : "n/a"} ms`;
  return [
    {
      key: "spectators.fanout500.latency.p50",
      label: "POST → socket latency p50, 500 spectators on one pod, 1,000 events/s",
      value: lat(50),
      unit: "ms",
      target: { atMost: 10 },
      note: probeNote,
    },
    {
      key: "spectators.fanout500.latency.p99",
      label: "POST → socket latency p99, 500 spectators on one pod, 1,000 events/s",
      value: lat(99),
      unit: "ms",
      target: { atMost: 100 },
    },
    {
      key: "spectators.fanout500.complete",
      label: "spectators of those 500 with every event, in order",
      value: run.complete,
      unit: "spectators",
      target: { atLeast: 500 },
      note: runNote(run),
    },
  ];
}

async function live(base: string, crowd: Crowd, serverPid: number): Promise<Figure[]> {
  const run = await watchWhilePosting(base, crowd, serverPid, {
    name: "spectators-live",
    spectators: 2000,
    rate: 100,
    seconds: SECONDS,
    probe: true,
  });
  const rss = run.rssEndMiB === null ? null : Math.round(run.rssEndMiB);
  return [
    {
      key: "spectators.live2000.complete",
      label: "live spectators on one pod at 100 events/s, every event in order, no error",
      value: run.complete,
      unit: "spectators",
      target: { atLeast: 2000 },
      note: runNote(run),
    },
    {
      key: "spectators.live2000.rss",
      label: "server RSS with 2,000 spectators connected",
      value: rss,
      unit: "MiB",
      target: { atMost: 800 },
      note: `peak while posting ${Math.round(run.rssPeakMiB)} MiB`,
    },
  ];
}

async function catchUp(base: string): Promise<Figure[]> {
  const { times, failures } = await timeCatchUp(base, { missed: 10_000, runs: 3 });
  const sorted = [...times].sort((a, b) => a - b);
  const value = failures.length ? null : ms(sorted[1]!);
  const note = failures.length
    ? failures.join("; ")
    : `runs ${times.map((t) => `${Math.round(t)} ms`).join(", ")}`;
  return [
    {
      key: "spectators.catchup10k",
      label: "reconnect catch-up of 10,000 missed events (subscribe → tape:live, median of 3)",
      value,
      unit: "ms",
      target: { atMost: 1000 },
      note,
    },
  ];
}

/** The spectator figures against the server at `base` (whose process is `serverPid`: its RSS and CPU are read from /proc). */
export async function benchSpectators(
  base: string,
  opts: { serverPid: number; only?: SpectatorScenario[] },
): Promise<Figure[]> {
  const wanted = (s: SpectatorScenario) => !opts.only?.length || opts.only.includes(s);
  const crowd = startCrowd();
  const figures: Figure[] = [];
  try {
    if (wanted("fan-out")) figures.push(...(await fanOut(base, crowd, opts.serverPid)));
    if (wanted("live")) figures.push(...(await live(base, crowd, opts.serverPid)));
    if (wanted("catch-up")) figures.push(...(await catchUp(base)));
  } finally {
    crowd.stop();
  }
  return figures;
}

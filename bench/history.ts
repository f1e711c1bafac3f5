// History figures: reads that start from the fold's checkpoints (server/history/) on a server of
// their own. On a 100,000-event pod received over 120 days: a one-week signals window and the
// one-week signed record of an agent. On a lived-in pod (bench/history-seed.ts): /state?atSeq= at
// random seqs. Each with /healthz polled every 10 ms meanwhile (its p99 is the loop's latency as
// another client sees it). Alone: npx tsx bench/history.ts
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";
import { performance } from "node:perf_hooks";
import { CODEC_VERSION } from "../server/history/state-codec";
import { spawnServer } from "../server/testing/spawn-server";
import { eventually } from "../server/testing/eventually";
import type { Figure } from "./figures";
import { agent, get, pct, whileProbingHealthz } from "./http";
import { seedLivedInPod, seedOldPod } from "./history-seed";

const WEEK = 7 * 24 * 3600_000;
const ROUNDS = 5;
const AT_SEQ_ROUNDS = 20;
const CHECKPOINT_EVERY = 1000;

/** `work` with /healthz asked every 10 ms meanwhile: its answers' p99 and max. */
async function whileProbing<T>(base: string, work: () => Promise<T>) {
  const { value, latencies } = await whileProbingHealthz(base, work);
  return { value, ...stats(latencies) };
}

function stats(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p99: sorted.length ? pct(sorted, 99) : NaN, max: sorted.at(-1) ?? NaN };
}

/** Each GET of `paths` in turn, timed; throws on anything but 200. */
async function timedGets(base: string, paths: string[]): Promise<number[]> {
  const out: number[] = [];
  for (const p of paths) {
    const t = performance.now();
    const res = await get(`${base}${p}`);
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${res.text.slice(0, 200)}`);
    out.push(performance.now() - t);
  }
  return out;
}

/** Checkpoints this code reads (a seed of older code may hold others until the server drops them). */
const THIS_CODEC = `%/${CODEC_VERSION}`;

/** The pod's checkpoints, or (`upTo`) the highest seq of one at or below it: the keeper makes them in seq order, so the last one says it is done. */
const checkpoints = (file: string, podId: string, upTo?: number) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (upTo !== undefined)
      return (
        db
          .prepare(
            "SELECT COALESCE(MAX(seq), 0) AS n FROM pod_checkpoint WHERE pod_id = ? AND fold LIKE ? AND seq <= ?",
          )
          .get(podId, THIS_CODEC, upTo) as { n: number }
      ).n;
    return (
      db
        .prepare("SELECT COUNT(*) AS n FROM pod_checkpoint WHERE pod_id = ? AND fold LIKE ?")
        .get(podId, THIS_CODEC) as { n: number }
    ).n;
  } catch {
    return -1; // a server without the table (older code: nothing to wait for)
  } finally {
    db.close();
  }
};

/** Bytes of the pod's checkpoints on disk, of its latest one inflated, and of its tape's bodies and meta. */
const checkpointBytes = (file: string, podId: string) => {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if (checkpoints(file, podId) < 0) return "no checkpoints (older code)";
    const stored = db
      .prepare(
        "SELECT COALESCE(SUM(length(state)), 0) AS n FROM pod_checkpoint WHERE pod_id = ? AND fold LIKE ?",
      )
      .get(podId, THIS_CODEC) as { n: number };
    const last = db
      .prepare("SELECT state FROM pod_checkpoint WHERE pod_id = ? AND fold LIKE ? ORDER BY seq DESC LIMIT 1")
      .get(podId, THIS_CODEC) as { state: Buffer } | undefined;
    const tape = db
      .prepare("SELECT SUM(length(body) + COALESCE(length(meta), 0)) AS n FROM event WHERE pod_id = ?")
      .get(podId) as { n: number };
    const kib = (n: number) => `${Math.round(n / 1024).toLocaleString("en")} KiB`;
    const lastNote = last
      ? `, the latest ${kib(last.state.length)} (${kib(inflateRawSync(last.state).length)} of JSON)`
      : "";
    return `checkpoints on disk ${kib(stored.n)}${lastNote}; the tape's bodies and meta ${kib(tape.n)}`;
  } finally {
    db.close();
  }
};

const max = (xs: number[]) => Math.max(...xs);
const fmt = (ms: number) => `${Math.round(ms)} ms`;

export async function benchHistory(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-history-"));
  const file = join(dir, "history.db");
  const figures: Figure[] = [];
  const seedStart = performance.now();
  const old = await seedOldPod(`file:${file}`);
  const seeded = performance.now() - seedStart;
  const server = await spawnServer({ DATABASE_URL: `file:${file}` }, { name: "the history bench's server" });
  const base = server.url;
  try {
    // The seeded tape's commits reach the checkpoint keeper through the outbox once the server runs.
    const keptStart = performance.now();
    const wanted = Math.floor(old.head / CHECKPOINT_EVERY) * CHECKPOINT_EVERY;
    await eventually(
      async () => checkpoints(file, old.podId, wanted),
      (n) => n < 0 || n >= wanted,
      "the old pod's checkpoints",
      600_000,
      500,
    ).catch(() => null);
    const kept = performance.now() - keptStart;
    const from = new Date(Date.now() - WEEK).toISOString();
    const window = await whileProbing(base, () =>
      timedGets(
        base,
        Array.from({ length: ROUNDS }, () => `/api/v1/pods/${old.podId}/signals?from=${from}`),
      ),
    );
    const record = await whileProbing(base, () =>
      timedGets(
        base,
        Array.from(
          { length: ROUNDS },
          () => `/api/v1/signals/record?pod=${old.podId}&agent=impl-1&from=${from}`,
        ),
      ),
    );
    const oldNote = `100k events over 120 days, ~5.8k in the week; slowest of ${ROUNDS}; seeded in ${fmt(seeded)}, checkpoints made after start in ${fmt(kept)} (${checkpoints(file, old.podId)})`;
    figures.push(
      {
        key: "history.window",
        label: "one-week signals window, 100k-event pod",
        value: max(window.value),
        unit: "ms",
        target: { atMost: 500 },
        note: `${oldNote}; each: ${window.value.map(fmt).join(", ")}`,
      },
      {
        key: "history.window.healthz",
        label: "/healthz p99 during those windows",
        value: window.p99,
        unit: "ms",
        target: { atMost: 50 },
        note: `max ${fmt(window.max)}`,
      },
      {
        key: "history.record",
        label: "one-week signed record, 100k-event pod",
        value: max(record.value),
        unit: "ms",
        target: { atMost: 500 },
        note: `each: ${record.value.map(fmt).join(", ")}`,
      },
      {
        key: "history.record.healthz",
        label: "/healthz p99 during those records",
        value: record.p99,
        unit: "ms",
        target: { atMost: 50 },
        note: `max ${fmt(record.max)}`,
      },
    );

    const lived = await seedLivedInPod(base);
    const livedLast = Math.floor(lived.head / CHECKPOINT_EVERY) * CHECKPOINT_EVERY;
    await eventually(
      async () => checkpoints(file, lived.podId, livedLast),
      (n) => n < 0 || n >= livedLast,
      "the lived-in pod's checkpoints",
      600_000,
      500,
    ).catch(() => null);
    const seqs = Array.from(
      { length: AT_SEQ_ROUNDS },
      (_, i) =>
        1 + Math.floor((((i * 7919) % AT_SEQ_ROUNDS) / AT_SEQ_ROUNDS) * (lived.head - 1) + (i % 3) * 137),
    );
    const atSeq = await whileProbing(base, () =>
      timedGets(
        base,
        seqs.map((s) => `/api/v1/pods/${lived.podId}/state?atSeq=${s}`),
      ),
    );
    const sorted = [...atSeq.value].sort((a, b) => a - b);
    figures.push(
      {
        key: "history.atSeq",
        label: "/state?atSeq= on the lived-in pod, slowest of 20 seqs",
        value: max(atSeq.value),
        unit: "ms",
        target: { atMost: 200 },
        note: `${lived.head.toLocaleString("en")} events (3,000-task plan, 300 tasks decided, 15,000 notes); p50 ${fmt(pct(sorted, 50))}; each: ${atSeq.value.map(fmt).join(", ")}; ${checkpointBytes(file, lived.podId)}`,
      },
      {
        key: "history.atSeq.healthz",
        label: "/healthz p99 during those reads",
        value: atSeq.p99,
        unit: "ms",
        target: { atMost: 50 },
        note: `max ${fmt(atSeq.max)}`,
      },
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchHistory()
    .then((figures) => {
      for (const f of figures)
        console.log(
          `  ${f.label.padEnd(56)} ${f.value === null ? "n/a" : `${Math.round(f.value)} ${f.unit}`}${f.target?.atMost !== undefined ? ` (≤ ${f.target.atMost})` : ""}  ${f.note ?? ""}`,
        );
    })
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    })
    .finally(() => agent.destroy());
}

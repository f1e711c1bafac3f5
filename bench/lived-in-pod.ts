// The lived-in pod: a pod as a team leaves it after weeks — a 3,000-task plan with descriptions
// and metadata, 300 tasks taken through implement → review → decide, 15,000 notes — against a
// fresh pod on the same server. Single-event note POSTs (32 keep-alive clients), rounds
// alternated between the two pods, the ratio of their rates; then the server is restarted and the
// lived-in pod's first /state and first append are timed. On SQLite and on PostgreSQL (the bench's
// own, or BENCH_DATABASE_URL / TEST_DATABASE_URL; without one its figures say so).
//
//   BENCH_ONLY=lived-in npm run bench   only these figures
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer, type SpawnedServer } from "../server/testing/spawn-server";
import { createTestDatabase } from "../server/testing/test-databases";
import { benchPostgres } from "./cluster-postgres";
import type { Figure } from "./figures";
import { createPod, note, post } from "./http";
import { dealRequests, rawPost, runKeepAliveClients, type LoadResult } from "./load/keep-alive-clients";
import { loadFigureNote } from "./load/load-figure-note";

const TASKS = 3000;
const TAKEN = 300;
const NOTES = 15_000;
const ROUNDS = 6;
/** POSTs a round; BENCH_LIVED_IN_ROUND makes a quick look shorter. */
const ROUND_REQUESTS = Number(process.env.BENCH_LIVED_IN_ROUND ?? 5000);
const CLIENTS = 32;
const HASH = "e".repeat(64);
/** What an operator's bench server would allow: the figure measures ingest, not the per-token limit. */
const ENV = { PODWATCH_RATE_LIMIT_PER_MINUTE: "1000000000" };

type Pod = { podId: string; token: string };

async function send(base: string, podId: string, events: object[]) {
  const r = await post(`${base}/api/v1/pods/${podId}/events`, JSON.stringify({ events }));
  if (r.status !== 201) throw new Error(`building the lived-in pod: ${r.status} ${r.text.slice(0, 300)}`);
}

const ev = (type: string, actor: string, body: object, more: object = {}) => ({
  id: crypto.randomUUID(),
  type,
  actor,
  body,
  ...more,
});

/** The pod a team leaves behind: members, the plan in slices (one event stays under its size bound), the work, the notes. */
async function livedInPod(base: string): Promise<Pod> {
  const pod = await createPod(base, "bench-lived-in");
  const member = (memberId: string, roles: string[]) =>
    post(
      `${base}/api/v1/pods/${pod.podId}/members`,
      JSON.stringify({ memberId, kind: "agent", displayName: memberId, roles }),
    );
  await member("bench-reviewer", ["reviewer"]);
  await member("bench-chair", ["chair"]);
  const task = (i: number) => ({
    task_id: `task_${String(i).padStart(4, "0")}`,
    description: `Implement part ${i} of the billing export: read the ledger, convert the currency, write the CSV, and cover it with tests (${"x".repeat(120)})`,
    status: "pending",
    metadata: {
      area: `area-${i % 17}`,
      estimate: (i % 8) + 1,
      labels: ["backend", "billing", `sprint-${i % 12}`],
      owner: `team-${i % 5}`,
    },
  });
  for (let from = 0; from < TASKS; from += 500) {
    await send(base, pod.podId, [
      ev("plan.imported", "bench-chair", {
        plan: { tasks: Array.from({ length: 500 }, (_, k) => task(from + k)) },
      }),
    ]);
  }
  for (let i = 0; i < TAKEN; i += 20) {
    const events = [];
    for (let k = i; k < i + 20; k++) {
      const taskId = task(k).task_id;
      const bundleId = `ev-${k}`;
      events.push(
        ev("task.updated", "bench-agent", { taskId, status: "in_progress" }),
        ev(
          "evidence.bundle",
          "bench-agent",
          {
            bundleId,
            commands: [{ command: "npm test", exit_code: 0 }],
            artifacts: [],
            env: { commit: "c0ffee" },
            manifestHash: HASH,
          },
          { taskId },
        ),
        ev("task.review_requested", "bench-agent", { taskId, evidenceIds: [bundleId] }),
        ev("review", "bench-reviewer", { taskId, verdict: "approve", comments: "checked from scratch" }),
        ev("decision", "bench-chair", {
          subject: { kind: "task", id: taskId },
          verdict: "approve",
          rationale: "reviewed and green",
        }),
      );
    }
    await send(base, pod.podId, events);
  }
  for (let i = 0; i < NOTES; i += 1000)
    await send(
      base,
      pod.podId,
      Array.from({ length: 1000 }, (_, k) => note(i + k)),
    );
  return pod;
}

async function round(server: SpawnedServer, pod: Pod, from: number): Promise<LoadResult> {
  const port = Number(new URL(server.url).port);
  const requests = Array.from({ length: ROUND_REQUESTS }, (_, i) =>
    rawPost(port, `/api/v1/pods/${pod.podId}/events`, pod.token, JSON.stringify(note(from + i))),
  );
  const r = await runKeepAliveClients({
    port,
    perClient: dealRequests(requests, CLIENTS),
    expectStatus: 201,
    serverPid: server.child.pid,
  });
  if (r.errors) throw new Error(`a round failed: ${loadFigureNote(r)}`);
  return r;
}

async function timed(
  what: string,
  run: () => Promise<{ status: number; text: string }>,
  ok: number,
): Promise<number> {
  const t = performance.now();
  const r = await run();
  if (r.status !== ok) throw new Error(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
  return performance.now() - t;
}

/** The figures on one database: the ratio, then the restart's first /state and first append. */
async function figuresOn(db: string, start: () => Promise<SpawnedServer>): Promise<Figure[]> {
  let server = await start();
  try {
    const lived = await livedInPod(server.url);
    const fresh = await createPod(server.url, "bench-fresh");
    // A short warm-up on each, then rounds alternated (the fresh pod first in odd rounds, so neither always follows the other).
    await round(server, lived, 0);
    await round(server, fresh, 0);
    const rates = { lived: [] as LoadResult[], fresh: [] as LoadResult[] };
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 ? (["fresh", "lived"] as const) : (["lived", "fresh"] as const);
      for (const which of order)
        rates[which].push(await round(server, which === "lived" ? lived : fresh, (i + 1) * ROUND_REQUESTS));
    }
    const sum = (rs: LoadResult[]) =>
      rs.reduce((n, r) => n + r.answered, 0) / rs.reduce((n, r) => n + r.seconds, 0);
    const [l, f] = [sum(rates.lived), sum(rates.fresh)];
    // Each round against the fresh round beside it, and the median of those: a burst of other work
    // on the machine (it is shared) skews one pair, not the figure.
    const pairs = rates.lived.map((r, i) => r.perSecond / rates.fresh[i]!.perSecond).sort((x, y) => x - y);
    const ratio = (pairs[(pairs.length - 1) >> 1]! + pairs[pairs.length >> 1]!) / 2;
    // The server's CPU per request: steadier than rates when other work shares the machine.
    const cpu = (rs: LoadResult[]) =>
      Math.round(rs.reduce((n, r) => n + (r.serverCpuMicrosPerRequest ?? NaN), 0) / rs.length);
    const stateBytes = Buffer.byteLength(
      (await fetchText(`${server.url}/api/v1/pods/${lived.podId}/state`)).text,
    );
    await server.stop();
    server = await start();
    const stateMs = await timed(
      "first /state",
      () => fetchText(`${server.url}/api/v1/pods/${lived.podId}/state`),
      200,
    );
    const appendMs = await timed(
      "first append",
      () => post(`${server.url}/api/v1/pods/${lived.podId}/events`, JSON.stringify(note(1e9)), lived.token),
      201,
    );
    // For comparison: the same read once the server is warm (what of the first is the restart's).
    const warmMs = await timed(
      "a later /state",
      () => fetchText(`${server.url}/api/v1/pods/${lived.podId}/state`),
      200,
    );
    const events = `${(stateBytes / 1e6).toFixed(2)} MB state: ${TASKS.toLocaleString("en")}-task plan, ${TAKEN} tasks decided, ${NOTES.toLocaleString("en")} notes`;
    return [
      {
        key: `lived-in.ratio.${db}`,
        label: `lived-in pod on ${db} (${events}): single-event ingest as a ratio to a fresh pod, median of ${ROUNDS} alternated pairs of rounds`,
        value: Math.round(ratio * 100) / 100,
        unit: "×",
        target: { atLeast: 0.9 },
        note:
          `pairs ${pairs.map((x) => x.toFixed(2)).join(" ")}; lived-in ${Math.round(l).toLocaleString("en")} events/s, fresh ${Math.round(f).toLocaleString("en")} events/s (${ROUND_REQUESTS.toLocaleString("en")} POSTs a round, ${CLIENTS} clients); ` +
          `server CPU ${cpu(rates.lived)} vs ${cpu(rates.fresh)} µs/request; last lived-in round: ${loadFigureNote(rates.lived.at(-1)!)}`,
      },
      {
        key: `lived-in.restart-state.${db}`,
        label: `lived-in pod on ${db}, restarted server: first GET /state`,
        value: Math.round(stateMs),
        unit: "ms",
        target: { atMost: 1000 },
        note: `a later /state: ${Math.round(warmMs)} ms (${(stateBytes / 1e6).toFixed(2)} MB)`,
      },
      {
        key: `lived-in.restart-append.${db}`,
        label: `lived-in pod on ${db}, restarted server: first append`,
        value: Math.round(appendMs),
        unit: "ms",
        target: { atMost: 1000 },
      },
    ];
  } finally {
    await server.stop();
  }
}

async function fetchText(url: string): Promise<{ status: number; text: string }> {
  const { SPAWN_ADMIN_TOKEN } = await import("../server/testing/spawn-server");
  const r = await fetch(url, { headers: { authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` } });
  return { status: r.status, text: await r.text() };
}

/** A database's figures, or one row saying why they could not be measured. */
const measured = (db: string, run: () => Promise<Figure[]>) =>
  run().catch((e: Error) => unmeasured(db, e.message.split("\n")[0]!));

const unmeasured = (db: string, why: string): Figure[] => [
  {
    key: `lived-in.ratio.${db}`,
    label: `lived-in pod on ${db}: single-event ingest as a ratio to a fresh pod`,
    value: null,
    unit: "×",
    target: { atLeast: 0.9 },
    note: `NOT MEASURED: ${why}`,
  },
];

/** A server that restarts on the same port: a client would find it where it was. */
function restartable(env: Record<string, string>, name: string): () => Promise<SpawnedServer> {
  let port = 0;
  return async () => {
    const s = await spawnServer({ ...env, ...ENV }, { port, name });
    port = Number(new URL(s.url).port);
    return s;
  };
}

async function onSqlite(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-lived-in-"));
  try {
    return await measured("SQLite", () =>
      figuresOn(
        "SQLite",
        restartable({ DATABASE_URL: `file:${join(dir, "lived-in.db")}` }, "the lived-in server"),
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(): Promise<Figure[]> {
  const pg = await benchPostgres();
  if ("skipped" in pg) return unmeasured("PostgreSQL", pg.skipped);
  const before = process.env.TEST_DATABASE_URL;
  process.env.TEST_DATABASE_URL = pg.url;
  try {
    return await measured("PostgreSQL", async () => {
      const db = await createTestDatabase("postgres");
      try {
        return await figuresOn(
          "PostgreSQL",
          restartable({ DATABASE_URL: db.url }, "the lived-in server (PostgreSQL)"),
        );
      } finally {
        await db.drop().catch(() => {});
      }
    });
  } finally {
    if (before === undefined) delete process.env.TEST_DATABASE_URL;
    else process.env.TEST_DATABASE_URL = before;
    pg.stop();
  }
}

/** BENCH_LIVED_IN_DB=sqlite or postgres: one database's figures only (a quick look). */
export async function benchLivedInPod(): Promise<Figure[]> {
  const only = process.env.BENCH_LIVED_IN_DB;
  return [...(only === "postgres" ? [] : await onSqlite()), ...(only === "sqlite" ? [] : await onPostgres())];
}

// Cluster figures for `npm run bench`: ingest with one and with two podwatch nodes (real
// processes, server/testing/cluster.ts) on one PostgreSQL, and cross-node POST → socket latency.
// Each figure runs for a few seconds; every process and database made here is removed after.
import os from "node:os";
import pg from "pg";
import { startCluster, type Cluster } from "../server/testing/cluster";
import { SPAWN_ADMIN_TOKEN } from "../server/testing/spawn-server";
import { benchPostgres } from "./cluster-postgres";
import { crossNodeLatency, ingestRate, ms, type BenchPod } from "./cluster-load";
import { CLIENTS, createPod } from "./http";

const FIGURE_MS = 4000;
const WARMUP_MS = 500;
const PODS = 8;
const BATCH = 100;
const LATENCY_SAMPLES = 500;

type Row = [string, string];
const rate = (n: number) => `${Math.round(n).toLocaleString("en")} events/s`;

/** The three ingest shapes on the nodes given, each on pods of its own (a fresh tape per figure). */
async function ingestFigures(nodes: string[], label: string): Promise<Row[]> {
  const pods = async (n: number, name: string) =>
    Promise.all(Array.from({ length: n }, (_, i) => createPod(nodes[i % nodes.length]!, `${name}-${i}`)));
  const shape = { clients: CLIENTS, ms: FIGURE_MS, warmupMs: WARMUP_MS };
  return [
    [
      `cluster ingest, ${label}: single-event POSTs, one pod (${CLIENTS} clients)`,
      rate(await ingestRate(nodes, await pods(1, "one"), { ...shape, batch: 1 })),
    ],
    [
      `cluster ingest, ${label}: single-event POSTs, ${PODS} pods (${CLIENTS} clients)`,
      rate(await ingestRate(nodes, await pods(PODS, "many"), { ...shape, batch: 1 })),
    ],
    [
      `cluster ingest, ${label}: ${BATCH}-event batches, ${PODS} pods (${CLIENTS} clients)`,
      rate(await ingestRate(nodes, await pods(PODS, "batch"), { ...shape, batch: BATCH })),
    ],
  ];
}

/** Connections the nodes hold on the bench's database (pool, bus listener, timekeeper), read from pg_stat_activity. */
async function connectionsNow(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export async function benchCluster(): Promise<Row[]> {
  const db = await benchPostgres();
  if ("skipped" in db) {
    console.log(`cluster figures skipped: ${db.skipped}`);
    return [["cluster figures", `skipped (${db.skipped})`]];
  }
  // The harness makes (and drops) a fresh database under TEST_DATABASE_URL: point it at ours.
  process.env.TEST_DATABASE_URL = db.url;
  // The bench measures ingest, not the per-token limit (120,000 a minute by default, shared by the nodes).
  const env = { PODWATCH_ADMIN_TOKEN: SPAWN_ADMIN_TOKEN, PODWATCH_RATE_LIMIT_PER_MINUTE: "1000000000" };
  let cluster: Cluster | null = null;
  try {
    cluster = await startCluster([]); // the nodes start below, one and then two
    const a = (await cluster.start("a", env)).url;
    const rows: Row[] = [
      [
        `cluster: PostgreSQL (${db.where}), ${os.cpus().length} cores shared by it, the nodes and the load`,
        "",
      ],
    ];
    rows.push(...(await ingestFigures([a], "1 node")));
    const b = (await cluster.start("b", env)).url;
    rows.push(...(await ingestFigures([a, b], "2 nodes")));
    rows.push([
      "PostgreSQL connections held by 2 nodes after load (pool, bus, timekeeper)",
      String(await connectionsNow(cluster.db.url)),
    ]);
    const pod: BenchPod = await createPod(a, "cross-node-latency");
    const latencies = await crossNodeLatency(a, b, pod, { samples: LATENCY_SAMPLES, ms: 2 * FIGURE_MS });
    rows.push([
      `cross-node POST (node A) → socket (node B) latency p50 (${latencies.length} events, one at a time)`,
      ms(latencies, 50),
    ]);
    rows.push(["cross-node POST (node A) → socket (node B) latency p99", ms(latencies, 99)]);
    return rows;
  } finally {
    await cluster?.stop();
    db.stop();
  }
}

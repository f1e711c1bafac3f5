// npm run bench: starts the real server (child process, temp SQLite database)
// and prints durable ingest throughput, POST→socket latency, the agent side's
// figures (evidence push, long-poll, CLI), webhook delivery throughput and fan-out latency, bytes on disk per event, the server's peak RSS and signal recomputation for a 100,000-event pod (in process), then the cluster figures (one and two nodes on one PostgreSQL). Traffic goes only to 127.0.0.1; every loop
// is bounded in count.
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { io } from "socket.io-client";
import { spawnServer } from "../server/testing/spawn-server";
import { benchAgentSide } from "./agent-side";
import { benchWebhooks } from "./webhooks";
import { benchAgentHooks } from "./agent-hooks";
import { benchSignals } from "./signals";
import { benchCluster } from "./cluster";
import { agent, CLIENTS, createPod, get, note, pct, post } from "./http";

const BATCH_REQUESTS = 120; // × 1000 events
const SINGLE_REQUESTS = 40_000;
const LATENCY_SAMPLES = 1000;

async function runPool(total: number, clients: number, send: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < total) await send(next++);
  }));
}

/** Database size per stored event once the WAL is checkpointed into the file. */
async function bytesPerStoredEvent(dbFile: string): Promise<number> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(dbFile);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const { n } = db.prepare("SELECT count(*) AS n FROM event").get() as { n: number };
  db.close();
  const size = [dbFile, `${dbFile}-wal`].filter(existsSync).reduce((sum, f) => sum + statSync(f).size, 0);
  return size / n;
}

/** Opens the pod page through a share link in headless Chromium and times navigation → newest tape row on screen. */
async function firstRender(base: string, podId: string): Promise<number> {
  const { chromium } = await import("@playwright/test");
  const link = JSON.parse((await post(`${base}/api/v1/pods/${podId}/share-links`, "{}")).text) as { token: string };
  const executablePath = existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const browser = await chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/share/${link.token}`); // sets the share cookie; warms Next's page code
    const head = (JSON.parse((await get(`${base}/api/v1/pods/${podId}`)).text) as { eventCount: number }).eventCount;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.evaluate(() => sessionStorage.clear()); // a cold tape: nothing restored from an earlier visit
      const t0 = performance.now();
      await page.goto(`${base}/pods/${podId}?tab=tape`);
      await page.locator(`[data-testid="tape-event"][data-seq="${head}"]`).filter({ hasText: "bench-agent" }).waitFor({ timeout: 30_000 });
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b)[1]!; // the median of three
  } finally {
    await browser.close();
  }
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-"));
  const dbFile = join(dir, "bench.db");
  // With the web UI: the last figure is how fast a 100,000-event pod page first renders.
  // Loopback may receive webhooks (the webhook figures' receiver runs here).
  const server = await spawnServer({ DATABASE_URL: `file:${dbFile}`, PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1" }, { web: true });
  const base = server.url;
  const rows: [string, string][] = [];
  try {
    // 1. Batched ingest: 4 clients, 1000 events a request.
    const batch = await createPod(base, "bench-batch");
    const bodies = Array.from({ length: BATCH_REQUESTS }, (_, r) => JSON.stringify({ events: Array.from({ length: 1000 }, (_, i) => note(r * 1000 + i)) }));
    let t = performance.now();
    await runPool(BATCH_REQUESTS, 4, async (i) => {
      const r = await post(`${base}/api/v1/pods/${batch.podId}/events`, bodies[i]!, batch.token);
      if (r.status !== 201) throw new Error(`batch → ${r.status} ${r.text}`);
    });
    const batchRate = (BATCH_REQUESTS * 1000) / ((performance.now() - t) / 1000);
    rows.push(["batched ingest (1000 events/request, 4 clients)", `${Math.round(batchRate).toLocaleString("en")} events/s`]);

    // 2. Single-event requests, 32 concurrent clients.
    const single = await createPod(base, "bench-single");
    const singles = Array.from({ length: SINGLE_REQUESTS }, (_, i) => JSON.stringify(note(i)));
    t = performance.now();
    await runPool(SINGLE_REQUESTS, CLIENTS, async (i) => {
      const r = await post(`${base}/api/v1/pods/${single.podId}/events`, singles[i]!, single.token);
      if (r.status !== 201) throw new Error(`single → ${r.status} ${r.text}`);
    });
    const singleRate = SINGLE_REQUESTS / ((performance.now() - t) / 1000);
    rows.push([`single-event requests (${CLIENTS} clients)`, `${Math.round(singleRate).toLocaleString("en")} events/s`]);

    // 3. POST → subscribed socket latency, one event at a time.
    const lat = await createPod(base, "bench-latency");
    const socket = io(base, { transports: ["websocket"], auth: { token: lat.token } });
    const waiting = new Map<string, (at: number) => void>();
    socket.on("tape:events", (f, ack) => {
      const at = performance.now();
      ack?.(); // backlog pages wait for it
      for (const e of f.events) waiting.get(e.id)?.(at);
    });
    await new Promise<void>((resolve) => {
      socket.on("tape:live", () => resolve());
      socket.emit("tape:subscribe", { podId: lat.podId, afterSeq: 0 });
    });
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const ev = note(i);
      const seen = new Promise<number>((resolve) => waiting.set(ev.id, resolve));
      const start = performance.now();
      await post(`${base}/api/v1/pods/${lat.podId}/events`, JSON.stringify(ev), lat.token);
      latencies.push((await seen) - start);
      waiting.delete(ev.id);
    }
    socket.close();
    latencies.sort((a, b) => a - b);
    rows.push(["POST → socket latency p50", `${pct(latencies, 50).toFixed(2)} ms`]);
    rows.push(["POST → socket latency p99", `${pct(latencies, 99).toFixed(2)} ms`]);

    rows.push(...(await benchAgentSide(base, await createPod(base, "bench-agent-side"))));
    rows.push(...(await benchWebhooks(base, await createPod(base, "bench-webhooks"))));
    rows.push(...(await benchAgentHooks(base, await createPod(base, "bench-hooks"))));

    rows.push(["pod page first render, 120,000-event pod (tape rows visible)", `${(await firstRender(base, batch.podId)).toFixed(0)} ms`]);

    const status = readFileSync(`/proc/${server.child.pid}/status`, "utf8");
    const hwm = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    rows.push(["server peak RSS", hwm ? `${Math.round(Number(hwm) / 1024)} MiB` : "n/a"]);
    await server.stop();
    rows.push(["bytes on disk per event (SQLite, checkpointed; ~70-byte note text)", `${Math.round(await bytesPerStoredEvent(dbFile))} B`]);
    // In this process, once the server is stopped: recomputation has the CPU to itself.
    rows.push(...benchSignals());
    // Last, with the SQLite server gone: two real nodes on one PostgreSQL (bench/cluster.ts).
    rows.push(...(await benchCluster()));
  } finally {
    await server.stop();
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  const width = Math.max(...rows.map(([k]) => k.length));
  console.log("\npodwatch benchmark (server + load generator on this machine)\n");
  for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
  console.log("");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

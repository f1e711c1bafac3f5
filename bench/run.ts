// npm run bench: the performance targets (ingest, hooks, spectators, memory, disk), each
// beside its bound and the previous run's figure, then the other figures (agent side, webhooks,
// hooks' latencies, first render, signals, cluster). The real server runs as a child process on a
// temp SQLite database at full durability (PODWATCH_SQLITE_SYNC, when set, is passed on and
// printed). Traffic goes only to 127.0.0.1; every loop is bounded in count and time, and the
// bench stops by itself.
//
//   npm run bench                      everything (several minutes)
//   BENCH_ONLY=targets npm run bench   only the target table (skips the slow other figures)
//   BENCH_ONLY=lived-in npm run bench  only the lived-in pod's figures (bench/lived-in-pod.ts)
//   BENCH_ONLY=large-writes npm run bench  only two concurrent 20k-span OTLP exports' /healthz (bench/large-writes.ts)
//   BENCH_ONLY=history npm run bench   only the 100k-event pod's history figures (bench/history.ts)
//
// Load comes from bench/load/keep-alive-clients.ts, whose own ceiling against a bare node http
// server is the table's first row. This run's figures are saved to bench-results/last.json.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../server/testing/spawn-server";
import { benchAgentSide } from "./agent-side";
import { benchWebhooks } from "./webhooks";
import { benchAgentHooks } from "./agent-hooks";
import { benchSignals } from "./signals";
import { benchHistory } from "./history";
import { benchCluster } from "./cluster";
import { diskBytesFigure } from "./disk-bytes";
import type { Figure } from "./figures";
import { firstRender } from "./first-render";
import { hookThroughputFigures } from "./hook-throughput";
import { agent, createPod } from "./http";
import { batchedIngestFigure, singleEventFigures, warmUp, type BenchServer } from "./ingest-figures";
import { generatorCeiling } from "./load/generator-ceiling";
import { describeMachine, printRun, readLastRun, saveRun } from "./report";
import { socketLatencyRows } from "./socket-latency";
import { benchSpectators } from "./spectators";
import { apiOnlyIdleRssFigure, idleRssFigure } from "./server-rss";
import { benchLivedInPod } from "./lived-in-pod";
import { benchLargeWrites } from "./large-writes";

const onlyTargets = process.env.BENCH_ONLY === "targets";

/** A figure without a target that fails (no browser here, no PostgreSQL) says so in its row instead of ending the run. */
async function otherRows(
  name: string,
  measure: () => Promise<[string, string][]>,
): Promise<[string, string][]> {
  try {
    return await measure();
  } catch (e) {
    return [[name, `NOT MEASURED: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`]];
  }
}

async function main() {
  const previous = readLastRun();
  const machine = describeMachine();
  if (process.env.BENCH_ONLY === "lived-in")
    return printOnly({ ...machine, figures: await benchLivedInPod() }, previous);
  if (process.env.BENCH_ONLY === "large-writes")
    return printOnly({ ...machine, figures: await benchLargeWrites() }, previous);
  if (process.env.BENCH_ONLY === "history")
    return printOnly({ ...machine, figures: await benchHistory() }, previous);
  const figures: Figure[] = [];
  const rows: [string, string][] = [];
  // First, alone on the machine: how fast the generator can go at all.
  figures.push(await generatorCeiling());
  figures.push(await apiOnlyIdleRssFigure());

  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-"));
  // With the web UI, as an operator runs it (and for the first-render figure). Loopback may receive
  // webhooks (the webhook figures' receiver runs here).
  const server = await spawnServer(
    { DATABASE_URL: `file:${join(dir, "bench.db")}`, PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1" },
    { web: true },
  );
  const target: BenchServer = { url: server.url, pid: server.child.pid! };
  const base = server.url;
  try {
    figures.push(await idleRssFigure(target.pid));
    await warmUp(target);
    const batch = await batchedIngestFigure(target);
    figures.push(...(await singleEventFigures(target)), batch.figure);
    figures.push(...(await hookThroughputFigures(target)));
    // 500 spectators' POST → socket latency, 2,000 live spectators and the RSS with them, catch-up of 10,000 events.
    figures.push(...(await benchSpectators(base, { serverPid: target.pid })));

    if (!onlyTargets) {
      rows.push(...(await otherRows("POST → socket latency", () => socketLatencyRows(base))));
      rows.push(
        ...(await otherRows("agent side", async () =>
          benchAgentSide(base, await createPod(base, "bench-agent-side")),
        )),
      );
      rows.push(
        ...(await otherRows("webhooks", async () =>
          benchWebhooks(base, await createPod(base, "bench-webhooks")),
        )),
      );
      rows.push(
        ...(await otherRows("Claude Code hooks", async () =>
          benchAgentHooks(base, await createPod(base, "bench-hooks")),
        )),
      );
      const render = "pod page first render, 120,000-event pod (tape rows visible)";
      rows.push(
        ...(await otherRows(render, async () => [
          [render, `${(await firstRender(base, batch.podId)).toFixed(0)} ms`],
        ])),
      );
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${target.pid}/status`, "utf8"))?.[1];
      rows.push(["server peak RSS", hwm ? `${Math.round(Number(hwm) / 1024)} MiB` : "n/a"]);
    }
    await server.stop();
    // A server of its own, once the main one is gone: its database holds only 300-byte events.
    figures.push(await diskBytesFigure());
    // History read from checkpoints (a 100k-event pod's week, a lived-in pod's past), on a server of their own.
    figures.push(
      ...(await benchHistory().catch((e: unknown) => [
        {
          key: "history",
          label: "history from checkpoints",
          value: null,
          unit: "ms",
          note: String(e).split("\n")[0],
        },
      ])),
    );
    // Servers of their own (SQLite, then PostgreSQL), each restarted once.
    figures.push(...(await benchLivedInPod()));
    // A server of its own: two 20,000-event OTLP exports at once, /healthz asked meanwhile.
    figures.push(...(await benchLargeWrites()));
    if (!onlyTargets) {
      // In this process, with no server running: recomputation has the CPU to itself.
      rows.push(...(await otherRows("signals", async () => benchSignals())));
      // Last: two real nodes on one PostgreSQL (bench/cluster.ts).
      rows.push(...(await otherRows("cluster", () => benchCluster())));
    }
  } finally {
    await server.stop();
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }

  const run = { ...machine, figures };
  printRun(run, previous);
  if (rows.length) {
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log("  Other figures (no target)\n");
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    console.log("");
  }
  saveRun(run);
  // A figure that could not be measured (errors, refused requests) fails the run, loudly.
  const failed = figures.filter((f) => f.value === null);
  if (failed.length) {
    console.error(`FAILED to measure: ${failed.map((f) => f.key).join(", ")} (see their notes above)`);
    process.exitCode = 1;
  }
}

/** One group of figures alone: printed beside the previous run's, not saved (the saved run stays whole). */
function printOnly(run: Parameters<typeof printRun>[0], previous: Parameters<typeof printRun>[1]) {
  printRun(run, previous);
  if (run.figures.some((f) => f.value === null)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// The agent side's figures: evidence push throughput (first push, and the
// re-push that uploads nothing), long-poll wake-up latency, and what one CLI
// command costs an agent end to end (process start included). Bounded loops,
// 127.0.0.1 only.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PodwatchClient } from "../agent/sdk/client";
import { pushEvidence } from "../agent/sdk/evidence";
import { runCli } from "../server/testing/run-cli";

const LONG_POLL_SAMPLES = 200;
const CLI_RUNS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.99) - 1)]!;

export async function benchAgentSide(
  base: string,
  pod: { podId: string; token: string },
): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const client = new PodwatchClient({ url: base, token: pod.token, podId: pod.podId });
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-evidence-"));
  try {
    // 100 files: one of 20 MB, 99 small logs.
    writeFileSync(join(dir, "big.bin"), randomBytes(20 * 1024 * 1024));
    mkdirSync(join(dir, "logs"));
    for (let i = 0; i < 99; i++)
      writeFileSync(join(dir, "logs", `${i}.log`), randomBytes(2048).toString("base64"));
    let t = performance.now();
    const first = await pushEvidence(client, dir, { bundleId: "bench-1", commit: "bench" });
    const firstMs = performance.now() - t;
    rows.push([
      "evidence push, 100 files / 20 MB, first",
      `${(firstMs / 1000).toFixed(2)} s (${(first.uploadedBytes / 1048576 / (firstMs / 1000)).toFixed(0)} MB/s)`,
    ]);
    t = performance.now();
    const again = await pushEvidence(client, dir, { bundleId: "bench-2", commit: "bench" });
    rows.push([
      "evidence push, same folder again (uploads " + again.uploaded + ")",
      `${((performance.now() - t) / 1000).toFixed(2)} s`,
    ]);

    // Long-poll: a waiting reader gets each event how soon after it is written?
    const latencies: number[] = [];
    let after = (await client.readEvents(0, { limit: 1000 })).nextAfter;
    for (let i = 0; i < LONG_POLL_SAMPLES; i++) {
      const waiting = client.readEvents(after, { waitSeconds: 10 });
      const woke = waiting.then(() => performance.now()); // the reader's moment, not the writer's
      await new Promise((r) => setTimeout(r, 5)); // let the reader park on the server
      const start = performance.now();
      await client.emit({ type: "note", body: { kind: "STATUS", text: `long-poll ${i}` } });
      const page = await waiting;
      latencies.push((await woke) - start);
      after = page.nextAfter;
    }
    rows.push(["POST → waiting long-poll reader, p50", `${median(latencies).toFixed(2)} ms`]);
    rows.push(["POST → waiting long-poll reader, p99", `${p99(latencies).toFixed(2)} ms`]);

    const cli: number[] = [];
    for (let i = 0; i < CLI_RUNS; i++) {
      t = performance.now();
      const r = await runCli(["checkpoint", "-c", `bench ${i}`], {
        PODWATCH_URL: base,
        PODWATCH_TOKEN: pod.token,
      });
      if (r.code !== 0) throw new Error(`podwatch checkpoint → ${r.code} ${r.stderr}`);
      cli.push(performance.now() - t);
    }
    rows.push([
      "`podwatch checkpoint`, whole command incl. node start, median",
      `${median(cli).toFixed(0)} ms`,
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

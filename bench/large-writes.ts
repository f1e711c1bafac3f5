// Large writes beside small ones: two agents' OTLP exporters each send one export of 10,000
// execute_tool spans (20,000 events: a start and an end per call, the most one export may carry),
// at the same time, to two pods of one server, while /healthz is asked every 10 ms. Its p99 is how
// long the event loop was held as any other client sees it. Each export is sent as
// http/protobuf (JSON of that many spans is past the body's 4 MiB).
// Alone: BENCH_ONLY=large-writes npm run bench, or npx tsx bench/large-writes.ts
import { mkdtempSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import { spawnServer } from "../server/testing/spawn-server";
import type { Figure } from "./figures";
import { agent, createPod, get, pct, whileProbingHealthz } from "./http";

const SPANS = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

type Encoder = { fromObject(o: object): object; encode(m: object): { finish(): Uint8Array } };
const Request = (
  root as unknown as { opentelemetry: { proto: { collector: { trace: { v1: Record<string, Encoder> } } } } }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest!;
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** One export: 10,000 tool calls of one agent, spread over 8 conversations. */
function exportBody(round: number, who: number): Buffer {
  const now = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: SPANS }, (_, i) => ({
    traceId: Buffer.from(hex(round * 100 + who + 1, 32), "hex"),
    spanId: Buffer.from(hex((round * 10 + who) * SPANS + i + 1, 16), "hex"),
    name: "execute_tool Bash",
    kind: 1,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 5_000_000n),
    attributes: [
      attr("gen_ai.operation.name", "execute_tool"),
      attr("gen_ai.tool.name", "Bash"),
      attr("gen_ai.tool.call.id", `call_${round}_${who}_${i}`),
      attr("gen_ai.conversation.id", `bench-${who}-${i % 8}`),
      attr("gen_ai.tool.call.arguments", JSON.stringify({ command: `npm test -- --shard ${i}` })),
    ],
    status: {},
  }));
  const message = Request.fromObject({
    resourceSpans: [
      {
        resource: { attributes: [attr("service.name", "bench-agent")] },
        scopeSpans: [{ scope: { name: "bench" }, spans }],
      },
    ],
  });
  return Buffer.from(Request.encode(message).finish());
}

function postProtobuf(url: string, body: Buffer, token: string): Promise<{ status: number; text: string }> {
  const headers = {
    authorization: `Bearer ${token}`,
    "content-type": "application/x-protobuf",
    "content-length": body.length,
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent, headers }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("latin1")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

export async function benchLargeWrites(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-large-"));
  const server = await spawnServer(
    { DATABASE_URL: `file:${join(dir, "large.db")}` },
    { name: "the large-writes bench's server" },
  );
  const base = server.url;
  const latencies: number[] = [];
  const took: number[] = [];
  try {
    const pods = [await createPod(base, "bench-large-a"), await createPod(base, "bench-large-b")];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies = pods.map((_, who) => exportBody(round, who));
      await whileProbingHealthz(
        base,
        async () => {
          const t = performance.now();
          try {
            const answers = await Promise.all(
              pods.map((p, who) => postProtobuf(`${base}/v1/traces`, bodies[who]!, p.token)),
            );
            const bad = answers.find((a) => a.status !== 200);
            if (bad) throw new Error(`/v1/traces → ${bad.status} ${bad.text.slice(0, 200)}`);
          } finally {
            took.push(performance.now() - t);
          }
        },
        latencies,
      );
    }
    const stored = await Promise.all(
      pods.map(
        async (p) =>
          (JSON.parse((await get(`${base}/api/v1/pods/${p.podId}`)).text) as { eventCount?: number })
            .eventCount,
      ),
    );
    const sorted = [...latencies].sort((a, b) => a - b);
    const note = `${ROUNDS} rounds of two ${SPANS.toLocaleString("en")}-span exports (20,000 events each), both exports took ${took.map((ms) => `${Math.round(ms)} ms`).join(", ")}; /healthz p50 ${Math.round(pct(sorted, 50))} ms, max ${Math.round(sorted.at(-1)!)} ms over ${sorted.length} probes; pods' event counts ${stored.join(", ")}`;
    return [
      {
        key: "large-writes.otlp.healthz",
        label: "two concurrent 20k-span OTLP exports: /healthz p99",
        value: pct(sorted, 99),
        unit: "ms",
        target: { atMost: 50 },
        note,
      },
    ];
  } catch (e) {
    return [
      {
        key: "large-writes.otlp.healthz",
        label: "two concurrent 20k-span OTLP exports: /healthz p99",
        value: null,
        unit: "ms",
        target: { atMost: 50 },
        note: `NOT MEASURED: ${String(e).split("\n")[0]}`,
      },
    ];
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchLargeWrites()
    .then((figures) => {
      for (const f of figures)
        console.log(
          `  ${f.label}: ${f.value === null ? "n/a" : `${Math.round(f.value)} ${f.unit}`} (≤ ${f.target?.atMost})\n    ${f.note ?? ""}`,
        );
    })
    .catch((e) => {
      console.error(e);
      process.exitCode = 1;
    })
    .finally(() => agent.destroy());
}

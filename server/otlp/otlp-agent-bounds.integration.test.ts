// POST /v1/logs and /v1/metrics under attack, against the real server, with the bounds /v1/traces
// has: bodies within the size cap built to decode into millions of objects, nested past the
// bound, gzip bombs, the wrong token or no agent's; and one bad record among good ones refused
// alone (partial success), in the request's encoding.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProviders } from "../testing/test-databases";
import { agentPod, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { loadFixture, logsRequestJson } from "../testing/agent-telemetry-fixtures";

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
  out.push(n);
  return Buffer.from(out);
}
const field = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), varint(content.length), content]);
/** request > resource-level > scope-level > one item (a log record or a metric): the same tags for both signals. */
const oneItem = (item: Buffer) => field(0x0a, field(0x12, field(0x12, item)));

describe.each(testProviders())("OTLP/HTTP logs and metrics bounds (%s)", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  const post = (
    signal: "logs" | "metrics",
    body: Uint8Array | string,
    headers: Record<string, string> = {},
    token = pod.tokens.coder!,
  ) =>
    fetch(`${s.url}/v1/${signal}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": typeof body === "string" ? "application/json" : "application/x-protobuf",
        ...headers,
      },
      body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
    });
  const text = async (res: Response) => Buffer.from(await res.arrayBuffer()).toString("utf8");
  const healthy = async () => expect((await fetch(`${s.url}/healthz`)).status).toBe(200);

  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "otel-agent-bounds", { coder: "implementer" });
  });
  afterAll(() => s?.stop());

  it("logs: two million empty attributes, 10,001 records, a body nested 10,000 deep: refused on the wire walk, never decoded", async () => {
    const attributes = Buffer.alloc(4_000_000, Buffer.from([0x32, 0x00])); // LogRecord.attributes = {}, two bytes each
    const many = await post("logs", oneItem(attributes));
    expect(many.status).toBe(413);
    expect(await text(many)).toContain("more than 400000 messages (log records");
    const record = field(0x12, field(0x62, Buffer.from("claude_code.user_prompt")));
    const records = await post(
      "logs",
      field(0x0a, field(0x12, Buffer.concat(Array.from({ length: 10_001 }, () => record)))),
    );
    expect(records.status).toBe(413);
    expect(await text(records)).toContain("10000 log records");
    let value = Buffer.alloc(0);
    for (let i = 0; i < 10_000; i++) value = field(0x2a, field(0x0a, value)); // AnyValue.array_value > values
    const deep = await post("logs", oneItem(field(0x2a, value))); // LogRecord.body
    expect(deep.status).toBe(400);
    expect(await text(deep)).toContain("deeper than");
    await healthy();
  });

  it("metrics: a histogram's packed bucket counts past the bound are refused (413): each number is one the decoder keeps", async () => {
    const counts = Buffer.alloc(3_900_000, 0); // ~487,000 fixed64 counts
    const point = field(0x32, counts); // HistogramDataPoint.bucket_counts, packed
    const res = await post("metrics", oneItem(field(0x4a, field(0x0a, point)))); // Metric.histogram > data_points
    expect(res.status).toBe(413);
    expect(await text(res)).toContain("data points, attributes");
    await healthy();
  });

  it("gzip bombs and bodies past 4 MiB are 413; JSON too deep or of the wrong shape is 400, a google.rpc.Status in JSON", async () => {
    const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x20));
    for (const signal of ["logs", "metrics"] as const) {
      const res = await post(signal, bomb, { "content-encoding": "gzip" });
      expect(res.status).toBe(413);
      expect((await post(signal, Buffer.alloc(4 * 1024 * 1024 + 1))).status).toBe(413);
      expect(JSON.parse(await text(await post(signal, "[".repeat(1000) + "]".repeat(1000))))).toMatchObject({
        code: 3,
      });
    }
    const wrongShape = await post(
      "logs",
      JSON.stringify({
        resourceLogs: [{ scopeLogs: [{ logRecords: [{ attributes: [{ key: "a", value: "x" }] }] }] }],
      }),
    );
    expect(wrongShape.status).toBe(400);
    expect(JSON.parse(await text(wrongShape)).message).toMatch(
      /^invalid_otlp: not an ExportLogsServiceRequest/,
    );
    await healthy();
  });

  it("a wrong token is 401 and the admin token 403, as google.rpc.Status; nothing is stored", async () => {
    const body = JSON.stringify(logsRequestJson(loadFixture("codex")));
    const wrong = await post("logs", body, {}, "pwa_not-a-token");
    expect(wrong.status).toBe(401);
    expect(JSON.parse(await text(wrong))).toMatchObject({ code: 16 });
    const admin = await post("metrics", JSON.stringify({ resourceMetrics: [] }), {}, TEST_ADMIN_TOKEN);
    expect(admin.status).toBe(403);
    expect(JSON.parse(await text(admin))).toMatchObject({ code: 7 });
    expect(Object.keys((await s.app.store.readState(pod.podId))!.sessions)).toEqual([]);
  });

  it("one record the tape cannot keep is refused alone: the others are stored, partialSuccess counts it", async () => {
    const request = logsRequestJson(loadFixture("gemini-cli"));
    const records = request.resourceLogs[0]!.scopeLogs[0]!.logRecords;
    const response = records.find((r) =>
      r.attributes.some((a) => a.value.stringValue === "gemini_cli.api_response"),
    )!;
    // A model named like a built-in property: usage keys by model, so the tape refuses the name.
    response.attributes.find((a) => a.key === "model")!.value = { stringValue: "__proto__" };
    const res = await post("logs", JSON.stringify(request));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-podwatch-unmapped-records")).toBe("1");
    const answer = JSON.parse(await text(res));
    expect(answer.partialSuccess.rejectedLogRecords).toBe("1");
    expect(answer.partialSuccess.errorMessage).toContain("gemini_cli.api_response");
    const session = (await s.app.store.readState(pod.podId))!.sessions[
      "8c2f4e6a-1b3d-4f5a-9c7e-2d4f6a8b0c1e"
    ];
    expect(session).toMatchObject({ via: "gemini-cli", prompts: 1, toolCalls: 2, failedToolCalls: 1 });
  });
});

// POST /v1/traces under attack, against the real server: bodies within the size cap built to
// decode into millions of objects (protobuf) or to parse into them (JSON) are refused on their
// bytes, and the server keeps answering; exports beyond one per token (or two per server) at
// once get 429 with Retry-After, which the SDK's exporter retries, and ordinary exports go on.
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from "@opentelemetry/sdk-trace-base";
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import { testProviders } from "../testing/test-databases";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { exportSlots } from "../http/otlp-routes";
import { EXPORT_RETRY_AFTER_SECONDS } from "./export-slots";

type Codec = { fromObject(o: object): object; encode(m: object): { finish(): Uint8Array } };
const Request = (
  root as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Codec } } } } };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** One ordinary tool span, as an exporter sends it. */
const toolSpan = (n: number) =>
  Request.encode(
    Request.fromObject({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                {
                  traceId: Buffer.alloc(16, n),
                  spanId: Buffer.alloc(8, n),
                  name: "execute_tool grep",
                  kind: 1,
                  startTimeUnixNano: "1760000000000000000",
                  endTimeUnixNano: "1760000000100000000",
                  attributes: [
                    { key: "gen_ai.operation.name", value: { stringValue: "execute_tool" } },
                    { key: "gen_ai.tool.name", value: { stringValue: "grep" } },
                    { key: "gen_ai.conversation.id", value: { stringValue: `bounds-${n}` } },
                  ],
                  status: { code: 1 },
                },
              ],
            },
          ],
        },
      ],
    }),
  ).finish();

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
  out.push(n);
  return Buffer.from(out);
}
const field = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), varint(content.length), content]);

describe.each(testProviders())("OTLP/HTTP bounds (%s)", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  const endpoint = () => `${s.url}/v1/traces`;
  const post = (body: Uint8Array | string, type = "application/x-protobuf", token = pod.tokens.planner!) =>
    fetch(endpoint(), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": type },
      body: typeof body === "string" ? body : new Blob([new Uint8Array(body)]),
    });
  const healthy = async () => expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  const tokenId = async (memberId: string) =>
    (
      (await api(s.url, "GET", `/api/v1/pods/${pod.podId}/tokens`)).body.tokens as {
        id: string;
        memberId: string;
      }[]
    ).find((t) => t.memberId === memberId)!.id;
  const stored = async (conversation: string) =>
    (await s.app.store.readState(pod.podId))!.sessions[conversation]?.toolCalls ?? 0;

  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "otel-bounds", {
      planner: "implementer",
      critic: "implementer",
      scout: "implementer",
    });
  });
  afterAll(() => s?.stop());

  it("two million empty attributes within the size cap are refused on the wire walk (413), never decoded; the server answers on", async () => {
    const attributes = Buffer.alloc(4_000_000, Buffer.from([0x4a, 0x00])); // Span.attributes = {}, two bytes each
    const body = field(0x0a, field(0x12, field(0x12, attributes))); // request > resourceSpans > scopeSpans > span
    expect(body.length).toBeLessThan(4 * 1024 * 1024);
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(Buffer.from(await res.arrayBuffer()).toString("utf8")).toContain("more than 400000 messages");
    await healthy();
    // So are 10,001 spans, and values nested 10,000 deep.
    const span = field(
      0x12,
      Buffer.concat([field(0x0a, Buffer.alloc(16, 1)), field(0x12, Buffer.alloc(8, 1))]),
    );
    const manySpans = await post(
      field(0x0a, field(0x12, Buffer.concat(Array.from({ length: 10_001 }, () => span)))),
    );
    expect(manySpans.status).toBe(413);
    expect(Buffer.from(await manySpans.arrayBuffer()).toString("utf8")).toContain("10000 spans");
    let array = Buffer.alloc(0);
    for (let i = 0; i < 10_000; i++) array = field(0x0a, field(0x2a, array));
    const deep = await post(
      field(0x0a, field(0x12, field(0x12, field(0x4a, field(0x12, field(0x2a, array)))))),
    );
    expect(deep.status).toBe(400);
    await healthy();
    expect((await post(toolSpan(1))).status).toBe(200);
    expect(await stored("bounds-1")).toBe(1);
  });

  it("JSON is held to the API's text checks before it is parsed: too deep is 400, a million empty objects 413", async () => {
    const deep = await post(`{"resourceSpans":${"[".repeat(200)}${"]".repeat(200)}}`, "application/json");
    expect(deep.status).toBe(400);
    expect(await deep.json()).toMatchObject({ code: 3, message: expect.stringContaining("json_too_deep") });
    const objects = `{"resourceSpans":[${"{},".repeat(1_300_000)}{}]}`;
    expect(objects.length).toBeLessThan(4 * 1024 * 1024);
    const many = await post(objects, "application/json");
    expect(many.status).toBe(413);
    expect((await many.json()).message).toContain("JSON objects and arrays");
    const nul = await post(
      JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ name: "a\u0000b" }] }] }] }),
      "application/json",
    );
    expect(nul.status).toBe(400);
    await healthy();
  });

  it("one export per token at a time: a second is 429 with Retry-After while the first is under way; a slow sender holds only its own slot", async () => {
    const planner = await tokenId("planner");
    const body = Buffer.from(toolSpan(2));
    // The first export's body is sent in two parts: until the rest comes, it is under way.
    const slow = httpRequest(endpoint(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${pod.tokens.planner}`,
        "content-type": "application/x-protobuf",
        "content-length": String(body.length),
      },
    });
    const slowAnswer = new Promise<number>((resolve, reject) =>
      slow.on("response", (r) => (r.resume(), resolve(r.statusCode!))).on("error", reject),
    );
    slow.write(body.subarray(0, 10));
    await expect.poll(() => exportSlots(s.app).underWay(planner)).toBe(1);

    const second = await post(toolSpan(3));
    expect(second.status).toBe(429);
    expect(second.headers.get("retry-after")).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
    expect(Buffer.from(await second.arrayBuffer()).toString("utf8")).toContain("one batch at a time");
    // Another agent is not held up by the slow one.
    expect((await post(toolSpan(4), undefined, pod.tokens.critic)).status).toBe(200);

    slow.end(body.subarray(10));
    expect(await slowAnswer).toBe(200);
    expect(exportSlots(s.app).underWay(planner)).toBe(0);
    expect((await post(toolSpan(3))).status).toBe(200);
    expect([await stored("bounds-2"), await stored("bounds-3"), await stored("bounds-4")]).toEqual([1, 1, 1]);
  });

  it("a sender that hangs up mid-body gives its slot back", async () => {
    const scout = await tokenId("scout");
    const gone = httpRequest(endpoint(), {
      method: "POST",
      headers: {
        authorization: `Bearer ${pod.tokens.scout}`,
        "content-type": "application/x-protobuf",
        "content-length": "1000",
      },
    });
    gone.on("error", () => {});
    gone.write(Buffer.alloc(10));
    await expect.poll(() => exportSlots(s.app).underWay(scout)).toBe(1);
    gone.destroy();
    await expect.poll(() => exportSlots(s.app).underWay(scout)).toBe(0);
    expect((await post(toolSpan(5), undefined, pod.tokens.scout)).status).toBe(200);
  });

  it("past the server's exports under way, 429; the OpenTelemetry SDK's exporter retries after Retry-After and gets through", async () => {
    const slots = exportSlots(s.app);
    // Two exports decoding elsewhere on this server (taken as the route takes them).
    const held = [slots.forServer(), slots.forServer()];
    try {
      const refused = await post(toolSpan(6), undefined, pod.tokens.critic);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
      expect(Buffer.from(await refused.arrayBuffer()).toString("utf8")).toContain("busy with other exports");

      const memory = new InMemorySpanExporter();
      const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] }).getTracer(
        "agents",
      );
      tracer
        .startSpan("execute_tool grep", {
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "grep",
            "gen_ai.conversation.id": "bounds-sdk",
          },
        })
        .end();
      const exporter = new ProtoExporter({
        url: endpoint(),
        headers: { Authorization: `Bearer ${pod.tokens.critic}` },
      });
      const result = new Promise<{ code: number }>((resolve) =>
        exporter.export(memory.getFinishedSpans() as ReadableSpan[], resolve),
      );
      await new Promise((r) => setTimeout(r, 300)); // its first attempt meets the full server
      held.forEach((release) => release());
      expect((await result).code).toBe(0);
      await exporter.shutdown();
      expect(await stored("bounds-sdk")).toBe(1);
    } finally {
      held.forEach((release) => release());
    }
    expect(slots.underWay()).toBe(0);
    expect((await post(toolSpan(6), undefined, pod.tokens.critic)).status).toBe(200);
  });
});

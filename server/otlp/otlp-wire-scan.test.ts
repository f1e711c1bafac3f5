// The wire walk must count exactly what the OpenTelemetry project's generated decoder builds, on
// real requests and on bodies garbled at random (same bytes, same verdict), or the bound it
// enforces would not be the bound on decoding.
import { describe, expect, it } from "vitest";
import root from "@opentelemetry/otlp-transformer/build/src/generated/root.js";
import { scanTraceRequest } from "./otlp-wire-scan";
import { jsonContainersPast } from "./otlp-body-bounds";

type Codec = {
  fromObject(o: object): object;
  encode(m: object): { finish(): Uint8Array };
  decode(b: Uint8Array): object;
};
const Request = (
  root as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: Codec } } } } };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
const LOOSE = { maxSpans: Infinity, maxItems: Infinity, maxDepth: 64 };

/** Every message object the decoder made inside the request, and every string of a repeated string field, as the walk counts them. */
const built = (request: object) => objects(request) - 1;
function objects(value: unknown): number {
  if (Array.isArray(value))
    return value.reduce((n: number, v) => n + (typeof v === "string" ? 1 : objects(v)), 0);
  if (
    typeof value !== "object" ||
    value === null ||
    value instanceof Uint8Array ||
    value.constructor?.name === "Long"
  )
    return 0;
  return 1 + Object.values(value).reduce((n: number, v) => n + objects(v), 0);
}

const kv = (key: string, value: object) => ({ key, value });
const span = (i: number) => ({
  traceId: new Uint8Array(16).fill(i + 1),
  spanId: new Uint8Array(8).fill(i + 2),
  name: `execute_tool t${i}`,
  kind: 1,
  startTimeUnixNano: 1_760_000_000_000_000_000n.toString(),
  endTimeUnixNano: 1_760_000_000_250_000_000n.toString(),
  attributes: [
    kv("gen_ai.operation.name", { stringValue: "execute_tool" }),
    kv("n", { intValue: i }),
    kv("ok", { boolValue: true }),
    kv("ratio", { doubleValue: 0.5 }),
    kv("list", {
      arrayValue: {
        values: [{ stringValue: "a" }, { arrayValue: { values: [{ bytesValue: new Uint8Array([1, 2]) }] } }],
      },
    }),
    kv("map", { kvlistValue: { values: [kv("inner", { stringValue: "x" })] } }),
  ],
  events: [
    { timeUnixNano: "1", name: "exception", attributes: [kv("exception.message", { stringValue: "boom" })] },
  ],
  links: [
    {
      traceId: new Uint8Array(16).fill(9),
      spanId: new Uint8Array(8).fill(9),
      attributes: [kv("l", { stringValue: "y" })],
      flags: 1,
    },
  ],
  status: { code: 2, message: "failed" },
  flags: 1,
});
const realistic = () =>
  Request.encode(
    Request.fromObject({
      resourceSpans: [
        {
          resource: {
            attributes: [kv("service.name", { stringValue: "planner" })],
            entityRefs: [
              { type: "service", idKeys: ["service.name", "service.instance.id"], descriptionKeys: ["host"] },
            ],
          },
          scopeSpans: [
            {
              scope: { name: "agents", version: "1", attributes: [kv("s", { stringValue: "z" })] },
              spans: [0, 1, 2].map(span),
            },
            { spans: [span(3)] },
          ],
        },
        { scopeSpans: [] },
      ],
    }),
  ).finish();

/** A small deterministic generator, so a failure can be replayed. */
function prng(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe("scanTraceRequest", () => {
  it("counts exactly the messages (and repeated strings) the generated decoder builds from a real request", () => {
    const bytes = realistic();
    const scan = scanTraceRequest(bytes, LOOSE);
    expect(scan).toEqual({ ok: true, spans: 4, items: built(Request.decode(bytes)) });
    expect(scan.ok && scan.items).toBeGreaterThan(60);
  });

  it("agrees with the decoder on bodies garbled at random: same verdict, and never fewer items than it builds", () => {
    const random = prng(15);
    const original = realistic();
    for (let round = 0; round < 3000; round++) {
      const bytes = Uint8Array.from(original);
      for (let k = 1 + Math.floor(random() * 3); k > 0; k--)
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      const cut = random() < 0.2 ? bytes.subarray(0, Math.floor(random() * bytes.length)) : bytes;
      let decoded: object | null = null;
      try {
        decoded = Request.decode(cut);
      } catch {
        decoded = null;
      }
      const scan = scanTraceRequest(cut, LOOSE);
      expect(scan.ok, `round ${round}`).toBe(decoded !== null);
      // A singular message field sent twice is built twice, the first thrown away: counted, not kept.
      if (scan.ok && decoded) expect(scan.items, `round ${round}`).toBeGreaterThanOrEqual(built(decoded));
    }
  });

  it("stops at the first span, item or level past its bounds", () => {
    const bytes = realistic();
    expect(scanTraceRequest(bytes, { ...LOOSE, maxSpans: 3 })).toMatchObject({ ok: false, passed: "spans" });
    expect(scanTraceRequest(bytes, { ...LOOSE, maxItems: 20 })).toMatchObject({ ok: false, passed: "items" });
    expect(scanTraceRequest(bytes, { ...LOOSE, maxDepth: 4 })).toMatchObject({ ok: false, passed: "depth" });
    // Two million empty attributes in one span: two bytes each, refused at the bound.
    const attributes = Buffer.alloc(4_000_000, Buffer.from([0x4a, 0x00]));
    const empty = scanTraceRequest(
      Buffer.concat([
        Buffer.from([0x0a]),
        varint(attributes.length + 10),
        Buffer.from([0x12]),
        varint(attributes.length + 5),
        Buffer.from([0x12]),
        varint(attributes.length),
        attributes,
      ]),
      { ...LOOSE, maxItems: 400_000 },
    );
    expect(empty).toMatchObject({ ok: false, passed: "items" });
    // An attribute value inside a value inside a value…, 10,000 deep.
    expect(scanTraceRequest(nested(10_000), LOOSE)).toMatchObject({ ok: false, passed: "depth" });
    expect(scanTraceRequest(new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), LOOSE)).toMatchObject({
      ok: false,
      passed: "malformed",
    });
  });
});

describe("jsonContainersPast", () => {
  it("counts objects and arrays outside strings only", () => {
    const text = (s: string) => Buffer.from(s);
    expect(jsonContainersPast(text('{"a":[{},{}],"b":"{[{[\\"{"}'), 4)).toBe(false);
    expect(jsonContainersPast(text('{"a":[{},{}],"b":{}}'), 4)).toBe(true);
    expect(jsonContainersPast(text("[" + "{},".repeat(1000) + "{}]"), 1000)).toBe(true);
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
  out.push(n);
  return Buffer.from(out);
}

/** resourceSpans > scopeSpans > span > attribute > value > arrayValue > value > … `levels` deep. */
function nested(levels: number): Uint8Array {
  let array: Buffer = Buffer.alloc(0); // an ArrayValue's content
  for (let i = 0; i < levels; i++) {
    const value = Buffer.concat([Buffer.from([0x2a]), varint(array.length), array]); // AnyValue.arrayValue
    array = Buffer.concat([Buffer.from([0x0a]), varint(value.length), value]); // ArrayValue.values
  }
  const anyValue = Buffer.concat([Buffer.from([0x2a]), varint(array.length), array]);
  const keyValue = Buffer.concat([Buffer.from([0x12]), varint(anyValue.length), anyValue]);
  const spanBody = Buffer.concat([Buffer.from([0x4a]), varint(keyValue.length), keyValue]);
  const scope = Buffer.concat([Buffer.from([0x12]), varint(spanBody.length), spanBody]);
  const rs = Buffer.concat([Buffer.from([0x12]), varint(scope.length), scope]);
  return Buffer.concat([Buffer.from([0x0a]), varint(rs.length), rs]);
}

import { describe, expect, it } from "vitest";
import { decodeMetricsJson, pointsOf } from "./otlp-metrics-codec";

const request = (metric: object) => ({ resourceMetrics: [{ scopeMetrics: [{ metrics: [metric] }] }] });

describe("OTLP JSON metrics", () => {
  it("decodes only what podwatch reads: a histogram's bucket counts and bounds are never turned into numbers", () => {
    const bucketCounts = Array.from({ length: 200_000 }, () => 1);
    const [decoded] = decodeMetricsJson(
      request({
        name: "x",
        histogram: {
          dataPoints: [
            { count: "7", timeUnixNano: "1", bucketCounts, explicitBounds: [1, 2], exemplars: [{}] },
          ],
        },
      }),
    )[0]!.items;
    const [point] = pointsOf(decoded!) as Record<string, unknown>[];
    expect(decoded!.name).toBe("x");
    expect(Number(point!.count)).toBe(7);
    expect(point!.bucketCounts ?? []).toEqual([]);
    expect(point!.explicitBounds ?? []).toEqual([]);
  });

  it("keeps a sum's values, attributes and temporality", () => {
    const [decoded] = decodeMetricsJson(
      request({
        name: "claude_code.session.count",
        sum: {
          aggregationTemporality: 1,
          dataPoints: [{ asInt: "3", attributes: [{ key: "session.id", value: { stringValue: "s-1" } }] }],
        },
      }),
    )[0]!.items;
    expect(decoded!.sum?.aggregationTemporality).toBe(1);
    const [point] = pointsOf(decoded!);
    expect(Number(point!.asInt)).toBe(3);
    expect(point!.attributes?.[0]?.key).toBe("session.id");
  });
});

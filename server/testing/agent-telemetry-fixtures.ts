// The recorded agent telemetry in server/otlp/fixtures/ (one file per agent, in its documented
// schema) as OTLP/JSON requests, for the mapping's unit tests, and its records as the OpenTelemetry
// JS SDK takes them, for the door's integration tests.
import { readFileSync } from "node:fs";
import path from "node:path";

export type AttrMap = Record<string, string | number | boolean>;
export type TelemetryFixture = {
  resource: AttrMap;
  logs: { body?: string; attributes: AttrMap }[];
  metrics: { name: string; value: number; attributes: AttrMap }[];
};
export const FIXTURE_AGENTS = ["claude-code", "codex", "gemini-cli"] as const;

export function loadFixture(agent: (typeof FIXTURE_AGENTS)[number]): TelemetryFixture {
  const file = path.join(import.meta.dirname, "..", "otlp", "fixtures", `${agent}.json`);
  return JSON.parse(readFileSync(file, "utf8")) as TelemetryFixture;
}

/** A record's time: its event.timestamp, as the agents stamp it. */
export const timeOf = (attributes: AttrMap) =>
  Date.parse(String(attributes["event.timestamp"] ?? "2026-11-25T00:00:00Z"));

const anyValue = (v: string | number | boolean) =>
  typeof v === "string"
    ? { stringValue: v }
    : typeof v === "boolean"
      ? { boolValue: v }
      : Number.isInteger(v)
        ? { intValue: String(v) }
        : { doubleValue: v };
const keyValues = (attrs: AttrMap) => Object.entries(attrs).map(([key, v]) => ({ key, value: anyValue(v) }));

/** The fixture's log records as an OTLP/JSON ExportLogsServiceRequest. */
export function logsRequestJson(fx: TelemetryFixture) {
  return {
    resourceLogs: [
      {
        resource: { attributes: keyValues(fx.resource) },
        scopeLogs: [
          {
            scope: { name: "recorded" },
            logRecords: fx.logs.map((l) => ({
              timeUnixNano: `${timeOf(l.attributes)}000000`,
              ...(l.body ? { body: { stringValue: l.body } } : {}),
              attributes: keyValues(l.attributes),
            })),
          },
        ],
      },
    ],
  };
}

/** The fixture's metrics as an OTLP/JSON ExportMetricsServiceRequest: cumulative sums, one point each. */
export function metricsRequestJson(fx: TelemetryFixture) {
  return {
    resourceMetrics: [
      {
        resource: { attributes: keyValues(fx.resource) },
        scopeMetrics: [
          {
            scope: { name: "recorded" },
            metrics: fx.metrics.map((m) => ({
              name: m.name,
              sum: {
                aggregationTemporality: 2,
                isMonotonic: true,
                dataPoints: [
                  {
                    timeUnixNano: "1795600000000000000",
                    ...(Number.isInteger(m.value) ? { asInt: String(m.value) } : { asDouble: m.value }),
                    attributes: keyValues(m.attributes),
                  },
                ],
              },
            })),
          },
        ],
      },
    ],
  };
}

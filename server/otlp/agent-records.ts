// Decoded OTLP log records and metric data points as the agent mappings read them: a name, plain
// attributes (bounded as a span's are, otlp-span.ts), a time. The name of a log record is its
// event name wherever the agent put it: OTLP's event_name field, the `event.name` attribute
// (Claude Code writes it without its prefix, and the full name in the body), or the body.
import { runSteps } from "../domain/plan-append";
import type { LogsRequest } from "./otlp-logs-codec";
import { pointsOf, type MetricsRequest } from "./otlp-metrics-codec";
import { attributesOf, cut, nanos, valueOf, type AttrValue } from "./otlp-span";
import type { ResourceMessage } from "./otlp-envelopes";

export type AgentRecord = {
  signal: "log" | "metric";
  name: string;
  attributes: ReadonlyMap<string, AttrValue>;
  timeNs: bigint;
  /** A metric point's value (a sum's or gauge's number, a histogram's count); 0 for a log record. */
  value: number;
};

/** Prefixes of the agents whose telemetry podwatch maps, and the service names they send under. */
export const AGENT_PREFIXES = ["claude_code.", "codex.", "gemini_cli."] as const;
const SERVICE_PREFIX: Record<string, string> = {
  "claude-code": "claude_code.",
  codex_cli_rs: "codex.",
  codex_exec: "codex.",
  codex: "codex.",
  "gemini-cli": "gemini_cli.",
};
/** What a resource adds to each of its records: who sent it, and the session when the resource names it. */
const RESOURCE_KEYS = new Set(["service.name", "session.id", "conversation.id"]);
const NAME_MAX = 100;

function resourceAttributes(resource: ResourceMessage | null): Map<string, AttrValue> {
  return new Map([...attributesOf(resource?.attributes)].filter(([key]) => RESOURCE_KEYS.has(key)));
}

/** Every log record of the request, one step per record. */
export function* readLogRecordSteps(request: LogsRequest): Generator<void, AgentRecord[]> {
  const out: AgentRecord[] = [];
  for (const { resource, items } of request) {
    const shared = resourceAttributes(resource);
    for (const r of items) {
      yield;
      const attributes = new Map([...shared, ...attributesOf(r.attributes)]);
      const body = valueOf(r.body, 0);
      const name = eventName(r.eventName ?? null, attributes, body);
      const time = nanos(r.timeUnixNano) || nanos(r.observedTimeUnixNano);
      out.push({ signal: "log", name, attributes, timeNs: time, value: 0 });
    }
  }
  return out;
}

export const readLogRecords = (request: LogsRequest) => runSteps(readLogRecordSteps(request));

/** Every data point of every metric, one step per metric; a point carries its metric's name. */
export function* readMetricPointSteps(request: MetricsRequest): Generator<void, AgentRecord[]> {
  const out: AgentRecord[] = [];
  for (const { resource, items } of request) {
    const shared = resourceAttributes(resource);
    for (const m of items) {
      yield;
      const name = cut(m.name ?? "").slice(0, NAME_MAX) || "(unnamed metric)";
      for (const p of pointsOf(m)) {
        const raw = p.asDouble ?? p.asInt ?? p.count ?? 0;
        const value = typeof raw === "number" ? raw : Number(raw.toString());
        out.push({
          signal: "metric",
          name,
          attributes: new Map([...shared, ...attributesOf(p.attributes)]),
          timeNs: nanos(p.timeUnixNano),
          value: Number.isFinite(value) ? value : 0,
        });
      }
    }
  }
  return out;
}

export const readMetricPoints = (request: MetricsRequest) => runSteps(readMetricPointSteps(request));

function eventName(
  field: string | null,
  attributes: ReadonlyMap<string, AttrValue>,
  body: AttrValue,
): string {
  const attr = attributes.get("event.name");
  const candidates = [field, typeof attr === "string" ? attr : null, typeof body === "string" ? body : null]
    .map((c) => c?.trim() ?? "")
    .filter((c) => c.length > 0 && c.length <= NAME_MAX);
  const prefixed = candidates.find((c) => AGENT_PREFIXES.some((p) => c.startsWith(p)));
  if (prefixed) return prefixed;
  // `event.name` without its prefix (one word, as Claude Code writes it), from an agent whose
  // service name says which it is; a dotted name is another convention's (gen_ai.…), kept as it is.
  const service = attributes.get("service.name");
  const prefix = typeof service === "string" ? SERVICE_PREFIX[service] : undefined;
  if (prefix && typeof attr === "string" && /^[a-z_]+$/.test(attr)) return prefix + attr;
  return candidates[0] ?? "(unnamed log record)";
}

// OpenTelemetry spans under the GenAI semantic conventions, as our session events: pure, so the
// same span always gives the same events with the same ids (an exporter's retry stores nothing
// twice; each id is a name that ingest-traces.ts seals with the installation's secret). Newer attribute names first, the older ones (gen_ai.system, prompt/completion tokens)
// where they cost one more lookup. A span that says nothing we keep is ignored and counted.
import { systemEventName } from "../shared/system-event-ids";
import { SUMMARY_MAX } from "../domain/events/agent-events";
import { ZId } from "../domain/events/seed-formats";
import type { TEventInput } from "../wire/events";
import type { AttrValue, OtlpSpan } from "./otlp-span";
import { runSteps } from "../domain/plan-append";

export type MappedSpan = { span: OtlpSpan; events: TEventInput[] };
export type SpanMapping = { mapped: MappedSpan[]; ignored: OtlpSpan[] };
/** Who the events are from: the token's pod and member. */
export type MappingContext = { podId: string; actor: string };

const AGENT_OPS = new Set(["invoke_agent", "create_agent"]);
const MODEL_OPS = new Set(["chat", "text_completion", "generate_content", "embeddings"]);
const KNOWN_OPS = new Set([...AGENT_OPS, ...MODEL_OPS, "execute_tool"]);
const NAME_MAX = 200;

export function mapGenAiSpans(spans: OtlpSpan[], ctx: MappingContext): SpanMapping {
  return runSteps(mapGenAiSpanSteps(spans, ctx));
}

/** The same, one step per span: a large export is mapped in slices (server/db/time-slices.ts). */
export function* mapGenAiSpanSteps(spans: OtlpSpan[], ctx: MappingContext): Generator<void, SpanMapping> {
  // Spans of one trace share its conversation even when only the agent span names it.
  const conversations = new Map<string, string>();
  for (const s of spans) {
    const c = text(s, "gen_ai.conversation.id");
    if (c && validId(c) && !conversations.has(s.traceId)) conversations.set(s.traceId, c);
  }
  const mapped: MappedSpan[] = [];
  const ignored: OtlpSpan[] = [];
  for (const span of spans) {
    yield;
    const conv = text(span, "gen_ai.conversation.id");
    const sessionId = conv && validId(conv) ? conv : (conversations.get(span.traceId) ?? span.traceId);
    const events = eventsOf(span, sessionId, ctx);
    if (events.length) mapped.push({ span, events });
    else ignored.push(span);
  }
  return { mapped, ignored };
}

function eventsOf(span: OtlpSpan, sessionId: string, ctx: MappingContext): TEventInput[] {
  const op = operationOf(span);
  const base = (kind: string, ts: bigint) => ({
    id: systemEventName(`otlp\n${ctx.podId}\n${ctx.actor}\n${span.traceId}\n${span.spanId}\n${kind}`),
    actor: ctx.actor,
    sessionId,
    ...(isoTime(ts) ? { ts: isoTime(ts)! } : {}),
  });
  const model = name(text(span, "gen_ai.response.model") ?? text(span, "gen_ai.request.model"));
  if (op && AGENT_OPS.has(op)) {
    const started: TEventInput = {
      ...base("session.started", span.startNs),
      type: "session.started",
      body: { via: "otel", ...(model ? { model } : {}) },
    };
    if (op === "create_agent") return [started];
    const reason =
      span.status === "error"
        ? summary(`error: ${errorOf(span) ?? "the agent span ended in error"}`, 200)
        : "completed";
    return [started, { ...base("session.ended", span.endNs), type: "session.ended", body: { reason } }];
  }
  if (op === "execute_tool") {
    const toolUseId = text(span, "gen_ai.tool.call.id");
    const common = {
      toolUseId: toolUseId && validId(toolUseId) ? toolUseId : span.spanId,
      tool: name(text(span, "gen_ai.tool.name")) ?? name(span.name.replace(/^execute_tool\s*/, "")) ?? "tool",
    };
    const input = summaryOf(span.attributes.get("gen_ai.tool.call.arguments"));
    const output = summaryOf(span.attributes.get("gen_ai.tool.call.result"));
    const durationMs = durationOf(span);
    const failed = span.status === "error";
    return [
      {
        ...base("tool.started", span.startNs),
        type: "tool.call",
        body: { ...common, phase: "started", ...(input ? { input } : {}) },
      },
      {
        ...base("tool.ended", span.endNs),
        type: "tool.call",
        body: {
          ...common,
          phase: failed ? "failed" : "succeeded",
          ...(failed
            ? { error: summary(errorOf(span) ?? "the tool span ended in error") }
            : output
              ? { output }
              : {}),
          ...(durationMs !== null ? { durationMs } : {}),
        },
      },
    ];
  }
  // Usage from any model call that reports it (the agent span's totals would count it twice).
  const usage = usageOf(span);
  if (usage && (op === null || MODEL_OPS.has(op))) {
    return [
      {
        ...base("usage.reported", span.endNs),
        type: "usage.reported",
        body: { model: model ?? "unknown", source: "otel", ...usage },
      },
    ];
  }
  return [];
}

/** gen_ai.operation.name, else the first word of a span named as the conventions name it ("chat gpt-4o"). */
function operationOf(span: OtlpSpan): string | null {
  const op = text(span, "gen_ai.operation.name");
  if (op) return op;
  const first = span.name.split(" ", 1)[0]!;
  return KNOWN_OPS.has(first) && [...span.attributes.keys()].some((k) => k.startsWith("gen_ai."))
    ? first
    : null;
}

function usageOf(span: OtlpSpan) {
  const input = count(span, "gen_ai.usage.input_tokens") ?? count(span, "gen_ai.usage.prompt_tokens");
  const output = count(span, "gen_ai.usage.output_tokens") ?? count(span, "gen_ai.usage.completion_tokens");
  if (input === null && output === null) return null;
  const cacheRead = count(span, "gen_ai.usage.cache_read.input_tokens") ?? 0;
  const cacheWrite = count(span, "gen_ai.usage.cache_creation.input_tokens") ?? 0;
  // The conventions count cached tokens inside input_tokens; our usage keeps them apart (as Claude's transcript does).
  return {
    inputTokens: Math.max(0, (input ?? 0) - cacheRead - cacheWrite),
    outputTokens: output ?? 0,
    cacheReadTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  };
}

/** The span's status message, else its first exception event, else error.type. */
function errorOf(span: OtlpSpan): string | null {
  if (span.statusMessage) return span.statusMessage;
  const exception = span.events.find((e) => e.name === "exception");
  if (exception) {
    const type = exception.attributes.get("exception.type");
    const message = exception.attributes.get("exception.message");
    const parts = [type, message].filter((p): p is string => typeof p === "string" && p.length > 0);
    if (parts.length) return parts.join(": ");
  }
  return text(span, "error.type");
}

function durationOf(span: OtlpSpan): number | null {
  if (!span.startNs || span.endNs < span.startNs) return null;
  const ms = Number((span.endNs - span.startNs) / 1_000_000n);
  return ms <= 7 * 24 * 3600_000 ? ms : null;
}

export function isoTime(ns: bigint): string | null {
  const ms = Number(ns / 1_000_000n);
  return ms > 0 && ms < 8.64e15 ? new Date(ms).toISOString() : null;
}

function text(span: OtlpSpan, key: string): string | null {
  const v = span.attributes.get(key);
  return typeof v === "string" && v.trim() ? clean(v.trim()) : null;
}

function count(span: OtlpSpan, key: string): number | null {
  const v = span.attributes.get(key);
  const n = typeof v === "number" ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? Math.min(n, 1e12) : null;
}

const validId = (id: string) => ZId.safeParse(id).success;
const name = (s: string | null) => (s ? clean(s.slice(0, NAME_MAX)) || null : null);

/** A tool's arguments or result: text as it is, anything else as JSON; cut to what the tape keeps. */
function summaryOf(v: AttrValue | undefined): string | null {
  if (v === undefined || v === null || v === "") return null;
  return summary(typeof v === "string" ? v : JSON.stringify(v));
}

export function summary(s: string, max = SUMMARY_MAX): string {
  // Cut, then cleaned again: the cut may split a surrogate pair.
  return s.length > max ? `${clean(s.slice(0, max - 1))}…` : clean(s);
}

/** What the store cannot keep: NUL, and UTF-16 halves without their pair. */
export const clean = (s: string) =>
  s
    .replace(/\u0000/g, "")
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");

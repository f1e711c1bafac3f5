// What each agent's telemetry mapping (claude-code-telemetry.ts, codex-telemetry.ts,
// gemini-cli-telemetry.ts) reads a record with and drafts events as: pure helpers, so the
// mappings say only what a record means. Texts are cut and cleaned as the span mapping cuts them.
import { SUMMARY_MAX } from "../domain/events/agent-events";
import type { AgentRecord } from "./agent-records";
import { clean, summary } from "./genai-spans";
import { systemEventName } from "../shared/system-event-ids";
import type { AttrValue } from "./otlp-span";

export type TelemetryContext = { podId: string; actor: string; recordPrompts: boolean };
/**
 * One event a record means. `key` names it within its session: with `perSession` the same key
 * from any record is one event (the session's start), else it is the record's own.
 */
export type Draft = {
  key: string;
  perSession?: boolean;
  type:
    | "session.started"
    | "session.ended"
    | "prompt.submitted"
    | "tool.call"
    | "usage.reported"
    | "agent.notified";
  body: Record<string, unknown>;
  /** When it happened, if not the record's time (a tool's start: its end less its duration). */
  atNs?: bigint;
};
/** A mapping of one record: its drafts ([] when it means nothing on the tape), or null for a name it does not know. */
export type RecordMapping = (r: RecordView, ctx: TelemetryContext) => Draft[] | null;

const MAX_DURATION_MS = 7 * 24 * 3600_000;
const NAME_MAX = 200;

export class RecordView {
  constructor(readonly record: AgentRecord) {}

  raw(key: string): AttrValue | undefined {
    return this.record.attributes.get(key);
  }
  /** A non-empty string attribute (a number is given as text), cleaned. */
  text(key: string): string | null {
    const v = this.raw(key);
    if (typeof v === "number") return String(v);
    return typeof v === "string" && v.trim() ? clean(v.trim()) : null;
  }
  /** A name (a tool's, a model's), cut to what the tape keeps. */
  name(key: string): string | null {
    const t = this.text(key);
    return t ? clean(t.slice(0, NAME_MAX)) || null : null;
  }
  /** A count: a non-negative integer, sent as a number or as text. */
  count(key: string): number | null {
    const n = this.number(key);
    return n !== null && n >= 0 ? Math.min(Math.round(n), 1e12) : null;
  }
  number(key: string): number | null {
    const v = this.raw(key);
    const n =
      typeof v === "number"
        ? v
        : typeof v === "string" && /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v)
          ? Number(v)
          : NaN;
    return Number.isFinite(n) ? n : null;
  }
  /** true / false, sent as a boolean or as text ("true", "false"). */
  bool(key: string): boolean | null {
    const v = this.raw(key);
    if (typeof v === "boolean") return v;
    return v === "true" ? true : v === "false" ? false : null;
  }
  /** Any value as a bounded summary: text as it is, anything else as JSON. */
  summary(key: string, max = SUMMARY_MAX): string | null {
    const v = this.raw(key);
    if (v === undefined || v === null || v === "") return null;
    return summary(typeof v === "string" ? v : JSON.stringify(v), max);
  }
  durationMs(key = "duration_ms"): number | null {
    const ms = this.count(key);
    return ms !== null && ms <= MAX_DURATION_MS ? ms : null;
  }
}

/** The first attribute of `keys` that is a usable id (a tool call's, a session's). */
export function idOf(r: RecordView, ...keys: string[]): string | null {
  for (const key of keys) {
    const v = r.text(key);
    if (v && v.length <= 200 && !/[\u0000-\u001f\u007f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(v))
      return v;
  }
  return null;
}

/** A tool call's id from the first of `keys` the record has, else one derived from the record (same record, same id). */
export function toolIdOf(r: RecordView, ...keys: string[]): string {
  const rec = r.record;
  const keyed = [...rec.attributes].filter(([key]) => /id$|name$/.test(key));
  return idOf(r, ...keys) ?? systemEventName(`tool\n${rec.name}\n${rec.timeNs}\n${JSON.stringify(keyed)}`);
}

/** A prompt as the pod keeps it: its length always, its text only when the pod records prompts. */
export function promptDraft(r: RecordView, ctx: TelemetryContext): Draft {
  const text = r.text("prompt");
  const chars = r.count("prompt_length") ?? text?.length ?? 0;
  return {
    key: "prompt",
    type: "prompt.submitted",
    body: { chars, ...(ctx.recordPrompts && text ? { text: summary(text) } : {}) },
  };
}

export type ToolOutcome = {
  toolUseId: string;
  tool: string;
  input: string | null;
  ok: boolean;
  error: string | null;
  output: string | null;
  durationMs: number | null;
  /**
   * The agent's own refusal of the call (its user's or its config's), told as the call's failure: a
   * tool.call's gate is podwatch's decision alone (server/domain/access/forged-gates.ts).
   */
  denied?: { by: "person" | "policy"; reason: string } | null;
};

/** A finished tool call as the tape joins them: started (at its end less its duration) and succeeded or failed. */
export function toolDrafts(r: RecordView, t: ToolOutcome): Draft[] {
  const common = { toolUseId: t.toolUseId, tool: t.tool };
  const end = r.record.timeNs;
  const start = t.durationMs !== null && end > 0n ? end - BigInt(t.durationMs) * 1_000_000n : end;
  const error = t.denied
    ? `refused by ${t.denied.by === "person" ? "the user" : "its config"}: ${t.denied.reason}`
    : t.error;
  return [
    {
      key: `tool\n${t.toolUseId}\nstarted`,
      type: "tool.call",
      atNs: start,
      body: { ...common, phase: "started", ...(t.input ? { input: t.input } : {}) },
    },
    {
      key: `tool\n${t.toolUseId}\nended`,
      type: "tool.call",
      body: {
        ...common,
        phase: t.ok && !t.denied ? "succeeded" : "failed",
        ...(t.ok && !t.denied
          ? t.output
            ? { output: t.output }
            : {}
          : { error: summary(error ?? "failed") }),
        ...(t.durationMs !== null ? { durationMs: t.durationMs } : {}),
      },
    },
  ];
}

/** Usage of one model request; cached input is kept apart from input, as the tape counts it. */
export function usageDraft(
  model: string | null,
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number },
  costUsd: number | null,
): Draft {
  return {
    key: "usage",
    type: "usage.reported",
    body: {
      model: model ?? "unknown",
      source: "otel",
      inputTokens: Math.max(0, tokens.input),
      outputTokens: Math.max(0, tokens.output),
      cacheReadTokens: Math.max(0, tokens.cacheRead),
      cacheWriteTokens: Math.max(0, tokens.cacheWrite),
      ...(costUsd !== null && costUsd >= 0 && costUsd <= 1e9 ? { costUsd } : {}),
    },
  };
}

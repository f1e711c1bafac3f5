// The shape of a CLI command: its words, help, options, and what it runs.
import { UsageError } from "../sdk/errors";
import type { PodAgent } from "../sdk/pod-agent";

export type OptionSpec = {
  type: "string" | "boolean";
  multiple?: boolean;
  short?: string;
  description: string;
  value?: string;
};
export type Parsed = {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
};
export type Output = {
  /** Progress for people (stderr; a live bar on a terminal). Silent with --json or --quiet. */
  progress: (line: string, done?: boolean) => void;
  /** For commands that stream (tail): a line now, rather than one result at the end. */
  line: (text: string, json: unknown) => void;
  json: boolean;
};
export type Result = { text: string; json: unknown; exitCode?: number };
export type RunContext = Parsed & { agent: () => PodAgent; out: Output; signal: AbortSignal };

export type Command = {
  /** "checkpoint", or "plan add" for a group's verb. */
  name: string;
  summary: string;
  /** After "podwatch <name> ": the positionals. */
  args?: string;
  /** [min, max] positionals. */
  arity?: [number, number];
  options?: Record<string, OptionSpec>;
  examples?: string[];
  /** Talks to no server (mcp starts its own client; help needs none). */
  run: (c: RunContext) => Promise<Result>;
};

/** Options several commands share (same flag, same help). */
export const OPTIONS = {
  evidence: {
    type: "string",
    multiple: true,
    description: "an evidence bundle id (repeatable)",
    value: "ID",
  },
  runId: { type: "string", description: "run id", value: "ID" },
  reason: { type: "string", description: "why", value: "TEXT" },
  task: { type: "string", description: "the task this is about", value: "ID" },
  inRun: { type: "string", description: "the run this is part of", value: "ID" },
} satisfies Record<string, OptionSpec>;

/** The usual result of a command that appended one event. */
export const recorded = (what: string, ack: { seq: number }): Result => ({
  text: `${what} recorded as #${ack.seq}`,
  json: ack,
});

export const str = (v: unknown) => (typeof v === "string" ? v : undefined);
export const list = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/**
 * `--set key=value` pairs. A value that is JSON and reads back the same (20, true, ["a"]) is
 * taken as such; anything else (1.10, 3.0, v2) stays the string that was typed.
 */
export function keyValues(pairs: string[], flag: string, asJson = true): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of pairs) {
    const i = p.indexOf("=");
    if (i <= 0) throw new UsageError(`--${flag} takes key=value, got "${p}"`);
    const raw = p.slice(i + 1);
    out[p.slice(0, i)] = asJson ? jsonIfExact(raw) : raw;
  }
  return out;
}

function jsonIfExact(raw: string): unknown {
  try {
    const value: unknown = JSON.parse(raw);
    return JSON.stringify(value) === raw ? value : raw;
  } catch {
    return raw;
  }
}

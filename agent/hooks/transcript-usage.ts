// Token usage from a Claude Code transcript (JSONL), read incrementally: from the byte offset
// where the last read stopped, at most maxBytes per call, complete lines only (a line still
// being written is left for next time). Claude Code writes one line per content block of an
// assistant message, each repeating the message's usage, so a message is counted once, by its
// id. Only numbers leave this file: never the transcript's text.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { TokenCounts } from "./model-prices";

export type TranscriptCursor = {
  offset: number;
  /** The ids of the messages counted lately (a message's lines may straddle two reads). */
  seen: string[];
  /** Inside a line longer than a whole read: skip to its end. */
  skipping?: boolean;
};
export type UsageChunk = {
  from: number;
  to: number;
  perModel: Map<string, TokenCounts>;
  cursor: TranscriptCursor;
};

export const DEFAULT_MAX_READ = 8 * 1024 * 1024;
const SEEN_KEPT = 200;

/** Counts one complete line's tokens into perModel; `seen` is kept in the cursor between reads. */
export type LineCounter = (line: string, seen: Set<string>, perModel: Map<string, TokenCounts>) => void;

/** Reads what was added since `cursor`; `to` is the offset of the next unread byte. `count`: another agent's log lines. */
export function readTranscriptUsage(
  path: string,
  cursor: TranscriptCursor,
  maxBytes = DEFAULT_MAX_READ,
  count: LineCounter = addLine,
): UsageChunk {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    // A transcript shorter than where we stopped was replaced (rewritten, or a new file): start over.
    const start = cursor.offset > size ? 0 : cursor.offset;
    const buf = Buffer.alloc(Math.min(maxBytes, size - start));
    const n = buf.length ? readSync(fd, buf, 0, buf.length, start) : 0;
    const got = buf.subarray(0, n);
    let first = 0;
    let skipping = cursor.offset > size ? false : Boolean(cursor.skipping);
    if (skipping) {
      const nl = got.indexOf(10);
      if (nl === -1) return unchanged(start, start + n, { ...cursor, offset: start + n, skipping: true });
      first = nl + 1;
      skipping = false;
    }
    const last = got.lastIndexOf(10);
    if (last < first) {
      // No complete line: a line longer than a whole read is skipped (it is a tool result, not usage).
      const full = n === maxBytes;
      return unchanged(start, full ? start + n : start, {
        ...cursor,
        offset: full ? start + n : start,
        skipping: full,
      });
    }
    const seen = new Set(cursor.seen);
    const perModel = new Map<string, TokenCounts>();
    for (const line of got.subarray(first, last).toString("utf8").split("\n")) count(line, seen, perModel);
    const to = start + last + 1;
    return { from: start, to, perModel, cursor: { offset: to, seen: [...seen].slice(-SEEN_KEPT) } };
  } finally {
    closeSync(fd);
  }
}

const unchanged = (from: number, to: number, cursor: TranscriptCursor): UsageChunk => ({
  from,
  to,
  perModel: new Map(),
  cursor,
});

type Line = {
  type?: unknown;
  requestId?: unknown;
  isApiErrorMessage?: unknown;
  message?: { id?: unknown; model?: unknown; usage?: Record<string, unknown> };
};

function addLine(text: string, seen: Set<string>, perModel: Map<string, TokenCounts>) {
  if (!text.includes('"usage"')) return; // most lines are prompts and tool results: skip them unparsed
  let line: Line;
  try {
    line = JSON.parse(text) as Line;
  } catch {
    return;
  }
  const m = line?.message;
  if (
    line.type !== "assistant" ||
    !m ||
    typeof m.model !== "string" ||
    !m.model ||
    m.model === "<synthetic>" ||
    !m.usage ||
    line.isApiErrorMessage === true
  )
    return;
  const key =
    typeof m.id === "string" ? `${m.id}:${typeof line.requestId === "string" ? line.requestId : ""}` : null;
  if (key !== null) {
    if (seen.has(key)) return;
    seen.add(key);
  }
  const u = m.usage;
  const t = {
    inputTokens: tokens(u.input_tokens),
    outputTokens: tokens(u.output_tokens),
    cacheReadTokens: tokens(u.cache_read_input_tokens),
    cacheWriteTokens: tokens(u.cache_creation_input_tokens),
  };
  if (!t.inputTokens && !t.outputTokens && !t.cacheReadTokens && !t.cacheWriteTokens) return;
  addTokens(perModel, m.model.slice(0, 200), t);
}

/** Adds `t` to `model`'s sum. */
export function addTokens(perModel: Map<string, TokenCounts>, model: string, t: TokenCounts) {
  const sum = perModel.get(model) ?? {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
  perModel.set(model, {
    inputTokens: sum.inputTokens + t.inputTokens,
    outputTokens: sum.outputTokens + t.outputTokens,
    cacheReadTokens: sum.cacheReadTokens + t.cacheReadTokens,
    cacheWriteTokens: sum.cacheWriteTokens + t.cacheWriteTokens,
  });
}

export const tokens = (v: unknown) =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? Math.min(v, 1e9) : 0;

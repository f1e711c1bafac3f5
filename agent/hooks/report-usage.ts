// At Stop, SubagentStop and SessionEnd: the tokens the transcript gained since the last read,
// as usage.reported events (one per model). They go into the spool before the cursor moves on,
// so a crash in between at worst reads the same bytes again, under the same derived ids (the
// byte range names them), and the server stores them once.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { acquireLock } from "./file-lock";
import { costOf } from "./model-prices";
import { Spool } from "./spool";
import { readTranscriptUsage, type AddUsageLine, type TranscriptCursor } from "./transcript-usage";
import { derivedUuid } from "./unreachable-rule";
import { writeFileAtomic } from "./write-atomic";

export const USAGE_EVENTS = new Set(["Stop", "SubagentStop", "SessionEnd"]);

/** The transcript this hook's usage is in: a subagent's own, else the session's. */
function transcriptOf(payload: Record<string, unknown>): string | null {
  const path =
    payload.hook_event_name === "SubagentStop" && typeof payload.agent_transcript_path === "string"
      ? payload.agent_transcript_path
      : payload.transcript_path;
  return typeof path === "string" && isAbsolute(path) && path.endsWith(".jsonl") && existsSync(path)
    ? path
    : null;
}

/** Spools the usage events the transcript gained; returns how many. */
export function spoolTranscriptUsage(
  spool: Spool,
  payload: Record<string, unknown>,
  maxBytes?: number,
  /** How the agent's transcript says usage (Claude Code's when absent). */
  addLine?: AddUsageLine,
): number {
  const path = transcriptOf(payload);
  const sessionId =
    typeof payload.session_id === "string" && payload.session_id ? payload.session_id.slice(0, 200) : null;
  if (!path || !sessionId) return 0;
  spool.ensureDir();
  const state = spool.sibling(
    `.usage-${createHash("sha256").update(`${sessionId}\n${path}`).digest("hex").slice(0, 20)}.json`,
  );
  const release = acquireLock(`${state}.lock`, { waitMs: 3000, staleMs: 60_000 });
  if (!release) return 0; // another hook of this session is reading it now
  try {
    const cursor = readCursor(state);
    const chunk = readTranscriptUsage(path, cursor, maxBytes, addLine);
    const events = [...chunk.perModel].map(([model, t]) => {
      const costUsd = costOf(model, t);
      return {
        id: derivedUuid(["usage", sessionId, path, String(chunk.from), String(chunk.to), model]),
        type: "usage.reported",
        ts: new Date().toISOString(),
        sessionId,
        body: { model, ...t, ...(costUsd === undefined ? {} : { costUsd }), source: "transcript" },
      };
    });
    if (events.length) spool.append([Spool.entry({ kind: "events", events })]);
    writeCursor(state, chunk.cursor);
    return events.length;
  } finally {
    release();
  }
}

function readCursor(file: string): TranscriptCursor {
  try {
    const c = JSON.parse(readFileSync(file, "utf8")) as TranscriptCursor;
    return {
      offset: Number.isSafeInteger(c.offset) && c.offset >= 0 ? c.offset : 0,
      seen: Array.isArray(c.seen) ? c.seen.filter((s) => typeof s === "string") : [],
      skipping: c.skipping === true,
    };
  } catch {
    return { offset: 0, seen: [] };
  }
}

function writeCursor(file: string, c: TranscriptCursor) {
  writeFileAtomic(file, JSON.stringify(c), 0o600);
}

// Agent turns on the tape: Claude Code reports every tool call twice (pre and post), thousands an
// hour, so a session's events from a prompt to the turn's end fold into one turn. Pure: it runs over
// whatever events the tape has loaded, again as pages load and live events arrive (a turn grows).
// A turn ends at the session's next prompt, its session.ended, or the Stop's checkpoint or note.
// Sessions may interleave (two agents at once), so a turn gathers its own session's events, not
// only adjacent ones. A session id is the agent's own word: another agent may send the same one, so
// a turn is one agent's session (actor and session id) and a call is joined by its agent's
// toolUseId — another agent's events never show inside, or change the outcome of, someone's turn. A gap in seqs (a page not loaded yet) ends every open turn: what lies in the
// gap is unknown, so a turn cut there shows as started earlier until the page arrives.
import type { TapeEvent } from "@/server/wire/events";
import { SESSION_EVENT_TYPES } from "@/server/wire/vocabulary";

export type Gate = { decision: "allow" | "deny"; by: string; reason?: string };
export type ToolCallView = {
  toolUseId: string;
  tool: string;
  input: string | null;
  outcome: "running" | "succeeded" | "failed";
  error: string | null;
  durationMs: number | null;
  gates: Gate[];
  pre: TapeEvent | null;
  post: TapeEvent | null;
};
export type TurnMember =
  { kind: "call"; seq: number; call: ToolCallView } | { kind: "event"; seq: number; event: TapeEvent };
export type Turn = {
  /** Stable while the turn grows: its session and its prompt's (else its first event's) seq. */
  key: string;
  sessionId: string;
  actor: string;
  prompt: TapeEvent | null;
  /** Every event of the turn, oldest first (the prompt included). */
  events: TapeEvent[];
  /** What the turn shows when expanded, oldest first: each call once (pre and post joined), the other events. */
  members: TurnMember[];
  calls: ToolCallView[];
  failed: number;
  denied: number;
  /** Tools by how often they were called, most first. */
  byTool: [string, number][];
  durationMs: number;
  /** ended: its end (next prompt, session end, checkpoint or note) is loaded; open: nothing after it yet (running); cut: an unloaded page follows. */
  state: "ended" | "open" | "cut";
};
export type TapeItem = { kind: "event"; event: TapeEvent } | { kind: "turn"; turn: Turn };

const SESSION_TYPES: ReadonlySet<string> = new Set(SESSION_EVENT_TYPES);
/** Session events that join an open turn but do not open one. */
const JOINERS: ReadonlySet<string> = new Set([
  "agent.notified",
  "subagent",
  "session.compacted",
  "usage.reported",
]);

type CallBody = {
  toolUseId?: string;
  tool?: string;
  phase?: string;
  input?: string;
  error?: string;
  durationMs?: number;
  gate?: Gate;
};
type Open = { sessionId: string; actor: string; prompt: TapeEvent | null; events: TapeEvent[] };

const sessionOf = (e: TapeEvent) => e.meta?.sessionId ?? null;
/** The open-turn key: an agent's session. JSON, so no actor or session id can forge another's key. */
const turnKey = (actor: string, sessionId: string) => JSON.stringify([actor, sessionId]);
const time = (e: TapeEvent) => Date.parse(e.receivedAt);

/**
 * `events`: loaded tape events in any order; `head`: the tape's newest seq (a turn reaching it is
 * still running). Answers items oldest first, each turn where its latest event is.
 */
export function groupTurns(events: readonly TapeEvent[], head?: number): TapeItem[] {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  const items: { at: number; item: TapeItem }[] = [];
  const open = new Map<string, Open>();
  const close = (key: string, state: Turn["state"]) => {
    const o = open.get(key);
    if (!o) return;
    open.delete(key);
    items.push({ at: o.events.at(-1)!.seq, item: { kind: "turn", turn: buildTurn(o, state) } });
  };
  let prev: number | null = null;
  for (const e of sorted) {
    if (prev !== null && e.seq !== prev + 1) for (const id of [...open.keys()]) close(id, "cut");
    prev = e.seq;
    const sid = sessionOf(e);
    const key = sid ? turnKey(e.actor, sid) : null;
    const turn = key ? open.get(key) : undefined;
    if (sid && key && SESSION_TYPES.has(e.type)) {
      if (e.type === "prompt.submitted") {
        close(key, "ended");
        open.set(key, { sessionId: sid, actor: e.actor, prompt: e, events: [e] });
        continue;
      }
      if (e.type === "tool.call") {
        if (turn) turn.events.push(e);
        else open.set(key, { sessionId: sid, actor: e.actor, prompt: null, events: [e] });
        continue;
      }
      if (turn && JOINERS.has(e.type)) {
        turn.events.push(e);
        continue;
      }
      if (e.type === "session.ended") close(key, "ended");
    } else if (e.type === "checkpoint" || e.type === "note") {
      // The Stop's checkpoint or note ends its agent's turn in its session, else every turn of its agent.
      if (key) close(key, "ended");
      else
        for (const o of [...open.values()])
          if (o.actor === e.actor) close(turnKey(o.actor, o.sessionId), "ended");
    }
    items.push({ at: e.seq, item: { kind: "event", event: e } });
  }
  const last = sorted.at(-1)?.seq ?? 0;
  for (const id of [...open.keys()]) close(id, head === undefined || last >= head ? "open" : "cut");
  return items.sort((a, b) => a.at - b.at).map((x) => x.item);
}

function buildTurn(o: Open, state: Turn["state"]): Turn {
  // Keyed by (agent, toolUseId): a turn is one agent's, and this keeps a call's join that agent's even so.
  const calls = new Map<string, ToolCallView>();
  const members: TurnMember[] = [];
  for (const e of o.events) {
    if (e === o.prompt) continue;
    if (e.type !== "tool.call") {
      members.push({ kind: "event", seq: e.seq, event: e });
      continue;
    }
    const b = (e.body ?? {}) as CallBody;
    const id = b.toolUseId ?? `seq-${e.seq}`;
    const callKey = JSON.stringify([e.actor, id]);
    let call = calls.get(callKey);
    if (!call) {
      call = {
        toolUseId: id,
        tool: b.tool ?? "?",
        input: null,
        outcome: "running",
        error: null,
        durationMs: null,
        gates: [],
        pre: null,
        post: null,
      };
      calls.set(callKey, call);
      members.push({ kind: "call", seq: e.seq, call });
    }
    if (b.input && !call.input) call.input = b.input;
    if (b.gate) call.gates.push(b.gate);
    if (b.phase === "started") call.pre = e;
    else if (b.phase === "succeeded" || b.phase === "failed") {
      call.post = e;
      call.outcome = b.phase;
      call.error = b.error ?? null;
    }
    if (call.post)
      call.durationMs =
        (call.post.body as CallBody).durationMs ??
        (call.pre ? Math.max(0, time(call.post) - time(call.pre)) : null);
  }
  const list = [...calls.values()];
  const counts = new Map<string, number>();
  for (const c of list) counts.set(c.tool, (counts.get(c.tool) ?? 0) + 1);
  const first = o.events[0]!;
  return {
    key: `${o.sessionId}:${first.seq}`,
    sessionId: o.sessionId,
    actor: o.actor,
    prompt: o.prompt,
    events: o.events,
    members,
    calls: list,
    failed: list.filter((c) => c.outcome === "failed").length,
    denied: list.filter((c) => c.gates.some((g) => g.decision === "deny")).length,
    byTool: [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
    durationMs: Math.max(0, time(o.events.at(-1)!) - time(first)),
    state,
  };
}

/** "850 ms", "12s", "1m 12s", "2h 5m". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** The turn's one line: "Turn · 14 tool calls (Bash 6, Read 5, Edit 3) · 2 failed · 1m 12s". */
export function describeTurn(t: Turn): string {
  const n = t.calls.length;
  const shown = t.byTool.slice(0, 4).map(([tool, k]) => `${tool} ${k}`);
  const more = t.byTool.length > 4 ? `, +${t.byTool.length - 4} more` : "";
  const parts = [
    t.prompt ? "Turn" : "Turn (started earlier)",
    `${n} tool call${n === 1 ? "" : "s"}${n ? ` (${shown.join(", ")}${more})` : ""}`,
    t.failed ? `${t.failed} failed` : null,
    t.denied ? `${t.denied} denied` : null,
    formatDuration(t.durationMs),
    t.state === "open" ? "running" : null,
  ];
  return parts.filter(Boolean).join(" · ");
}

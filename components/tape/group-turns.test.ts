import { describe, expect, it } from "vitest";
import type { TapeEvent } from "@/server/wire/events";
import { describeTurn, formatDuration, groupTurns, type TapeItem, type Turn } from "./group-turns";

const T0 = Date.parse("2025-01-01T10:00:00.000Z");
/** A tape event at `seq`, `sec` seconds after T0. */
function ev(
  seq: number,
  type: string,
  body: unknown,
  opts: { session?: string; actor?: string; sec?: number } = {},
): TapeEvent {
  return {
    id: `e${seq}`,
    podId: "p",
    seq,
    type,
    actor: opts.actor ?? "claude",
    role: null,
    ts: null,
    receivedAt: new Date(T0 + (opts.sec ?? seq) * 1000).toISOString(),
    body,
    meta:
      opts.session === undefined ? { sessionId: "s1" } : opts.session ? { sessionId: opts.session } : null,
    prevHash: "",
    hash: "",
  };
}
const pre = (seq: number, id: string, tool: string, input: string, extra: object = {}, o = {}) =>
  ev(seq, "tool.call", { toolUseId: id, tool, phase: "started", input, ...extra }, o);
const post = (seq: number, id: string, tool: string, phase = "succeeded", extra: object = {}, o = {}) =>
  ev(seq, "tool.call", { toolUseId: id, tool, phase, ...extra }, o);
const turns = (items: TapeItem[]): Turn[] => items.flatMap((i) => (i.kind === "turn" ? [i.turn] : []));
const shape = (items: TapeItem[]) =>
  items.map((i) =>
    i.kind === "turn"
      ? `turn:${i.turn.events.map((e) => e.seq).join(",")}`
      : `${i.event.type}#${i.event.seq}`,
  );

/** A whole Claude Code session: start, a prompt, four calls (one failed), the Stop's checkpoint, usage, end. */
const session = (): TapeEvent[] => [
  ev(1, "session.started", { via: "claude-code", model: "claude-sonnet-4-5" }),
  ev(2, "prompt.submitted", { text: "fix the flaky test", chars: 18 }),
  pre(3, "tu1", "Bash", "npm test"),
  post(4, "tu1", "Bash", "failed", { error: "1 failing" }, { sec: 16 }),
  pre(5, "tu2", "Read", "src/a.ts", {}, { sec: 17 }),
  post(6, "tu2", "Read", "succeeded", { durationMs: 40 }, { sec: 18 }),
  pre(7, "tu3", "Edit", "src/a.ts", { gate: { decision: "allow", by: "person" } }, { sec: 20 }),
  post(8, "tu3", "Edit", "succeeded", {}, { sec: 21 }),
  pre(9, "tu4", "Bash", "npm test", {}, { sec: 30 }),
  post(10, "tu4", "Bash", "succeeded", {}, { sec: 74 }),
  ev(11, "checkpoint", { completed: ["fixed"], next: [], blocked: [] }, { sec: 75 }),
  ev(12, "usage.reported", { model: "claude-sonnet-4-5", inputTokens: 10, outputTokens: 5 }, { sec: 75 }),
  ev(13, "session.ended", { reason: "logout" }, { sec: 80 }),
];

describe("groupTurns", () => {
  it("folds a prompt and its tool calls into one turn that ends at the Stop's checkpoint", () => {
    const items = groupTurns(session());
    expect(shape(items)).toEqual([
      "session.started#1",
      "turn:2,3,4,5,6,7,8,9,10",
      "checkpoint#11",
      "usage.reported#12",
      "session.ended#13",
    ]);
    const [turn] = turns(items);
    expect(turn!.state).toBe("ended");
    expect(turn!.calls.map((c) => [c.tool, c.outcome, c.durationMs])).toEqual([
      ["Bash", "failed", 13000],
      ["Read", "succeeded", 40],
      ["Edit", "succeeded", 1000],
      ["Bash", "succeeded", 44000],
    ]);
    expect(turn!.calls[0]!.error).toBe("1 failing");
    expect(turn!.calls[2]!.gates).toEqual([{ decision: "allow", by: "person" }]);
    expect(describeTurn(turn!)).toBe("Turn · 4 tool calls (Bash 2, Edit 1, Read 1) · 1 failed · 1m 12s");
  });

  it("shows each call once, pre and post joined by toolUseId, in the order they started", () => {
    const [turn] = turns(groupTurns(session()));
    expect(
      turn!.members.map((m) => (m.kind === "call" ? `${m.call.toolUseId}@${m.seq}` : m.event.type)),
    ).toEqual(["tu1@3", "tu2@5", "tu3@7", "tu4@9"]);
  });

  it("keeps a turn whose end has not arrived open, and grows it as live events arrive", () => {
    const first = session().slice(0, 5);
    const before = turns(groupTurns(first, 5))[0]!;
    expect(before.state).toBe("open");
    expect(before.calls.map((c) => c.outcome)).toEqual(["failed", "running"]);
    expect(describeTurn(before)).toContain("running");
    const after = turns(groupTurns(session().slice(0, 8), 8))[0]!;
    expect(after.key).toBe(before.key);
    expect(after.calls).toHaveLength(3);
  });

  it("ends every open turn at a gap in seqs, and joins the turn again once the page arrives", () => {
    const all = session();
    const cut = groupTurns([...all.slice(0, 4), ...all.slice(6)]); // seqs 5 and 6 not loaded
    expect(shape(cut)).toEqual([
      "session.started#1",
      "turn:2,3,4",
      "turn:7,8,9,10",
      "checkpoint#11",
      "usage.reported#12",
      "session.ended#13",
    ]);
    expect(turns(cut).map((t) => t.state)).toEqual(["cut", "ended"]);
    expect(describeTurn(turns(cut)[1]!)).toMatch(/^Turn \(started earlier\) · 2 tool calls/);
    // A page starting mid-turn: a post whose pre is not loaded still shows, with no duration.
    const tail = turns(groupTurns(all.slice(3, 6)))[0]!;
    expect(tail.calls.map((c) => [c.toolUseId, c.outcome, c.durationMs, c.pre])).toEqual([
      ["tu1", "failed", null, null],
      ["tu2", "succeeded", 40, expect.anything()],
    ]);
    expect(shape(groupTurns(all))).toEqual(shape(groupTurns([...all].reverse())));
  });

  it("keeps interleaved sessions apart and ends a turn at its session's next prompt or end", () => {
    const items = groupTurns([
      ev(1, "prompt.submitted", { chars: 3 }, { session: "a", actor: "ann" }),
      pre(2, "x1", "Bash", "ls", {}, { session: "a", actor: "ann" }),
      ev(3, "prompt.submitted", { chars: 4 }, { session: "b", actor: "bob" }),
      post(4, "x1", "Bash", "succeeded", {}, { session: "a", actor: "ann" }),
      pre(5, "y1", "Read", "f", {}, { session: "b", actor: "bob" }),
      ev(6, "prompt.submitted", { chars: 5 }, { session: "a", actor: "ann" }),
      ev(7, "session.ended", {}, { session: "b", actor: "bob" }),
      ev(8, "task.added", { description: "x" }, { session: "" }),
    ]);
    expect(shape(items)).toEqual(["turn:1,2,4", "turn:3,5", "turn:6", "session.ended#7", "task.added#8"]);
    expect(turns(items).map((t) => [t.sessionId, t.state])).toEqual([
      ["a", "ended"],
      ["b", "ended"],
      ["a", "open"],
    ]);
  });

  it("keeps another agent's events out of a turn even when it sends the same session id and toolUseId", () => {
    const ann = { session: "s", actor: "ann" };
    const bob = { session: "s", actor: "bob" };
    const items = groupTurns(
      [
        ev(1, "prompt.submitted", { chars: 3 }, ann),
        pre(2, "x1", "Bash", "npm test", {}, ann),
        post(3, "x1", "Bash", "failed", { error: "forged" }, bob), // bob marks ann's call failed
        ev(4, "prompt.submitted", { chars: 4 }, bob), // bob's prompt would end ann's turn
        ev(5, "checkpoint", { completed: ["forged"], next: [], blocked: [] }, bob),
        ev(6, "session.ended", {}, bob),
        ev(7, "agent.notified", { message: "still ann" }, ann),
        post(8, "x1", "Bash", "succeeded", {}, ann),
      ],
      8,
    );
    expect(shape(items)).toEqual(["turn:3", "turn:4", "checkpoint#5", "session.ended#6", "turn:1,2,7,8"]);
    const [bobsCall, bobsPrompt, annsTurn] = turns(items);
    expect([bobsCall!.actor, bobsPrompt!.actor, annsTurn!.actor]).toEqual(["bob", "bob", "ann"]);
    expect(annsTurn!.state).toBe("open");
    expect(annsTurn!.calls.map((c) => [c.toolUseId, c.outcome, c.error])).toEqual([
      ["x1", "succeeded", null],
    ]);
    expect(annsTurn!.failed).toBe(0);
    expect(bobsCall!.calls.map((c) => [c.toolUseId, c.outcome, c.pre])).toEqual([["x1", "failed", null]]);
    expect(new Set(turns(items).map((t) => t.key)).size).toBe(3);
  });

  it("does not let an actor or session id that contains a separator land in another agent's turn", () => {
    const items = groupTurns(
      [
        ev(1, "prompt.submitted", { chars: 3 }, { session: "b:c", actor: "a" }),
        pre(2, "x1", "Bash", "ls", {}, { session: "c", actor: "a:b" }),
      ],
      2,
    );
    expect(shape(items)).toEqual(["turn:1", "turn:2"]);
  });

  it("ends the turn of a checkpoint's agent when the checkpoint has no session, and leaves other events alone", () => {
    const items = groupTurns(
      [
        ev(1, "prompt.submitted", { chars: 3 }),
        pre(2, "x1", "Bash", "ls"),
        ev(3, "agent.notified", { message: "waiting" }),
        ev(4, "checkpoint", { completed: [], next: ["more"], blocked: [] }, { session: "" }),
        ev(5, "agent.notified", { message: "idle" }),
        ev(6, "tool.call", { toolUseId: "x2", tool: "Read", phase: "started" }, { session: "" }),
      ],
      6,
    );
    expect(shape(items)).toEqual(["turn:1,2,3", "checkpoint#4", "agent.notified#5", "tool.call#6"]);
    expect(turns(items)[0]!.members.map((m) => m.kind)).toEqual(["call", "event"]);
  });

  it("counts denied calls and names at most four tools", () => {
    const calls = ["A", "B", "C", "D", "E", "E"].flatMap((tool, i) => [
      pre(
        2 + 2 * i,
        `c${i}`,
        tool,
        "x",
        i === 0 ? { gate: { decision: "deny", by: "policy", reason: "no" } } : {},
      ),
      post(3 + 2 * i, `c${i}`, tool),
    ]);
    const [turn] = turns(groupTurns([ev(1, "prompt.submitted", { chars: 1 }, { sec: 0 }), ...calls], 99));
    expect(describeTurn(turn!)).toBe("Turn · 6 tool calls (E 2, A 1, B 1, C 1, +1 more) · 1 denied · 13s");
  });
});

describe("formatDuration", () => {
  it("reads at a glance", () => {
    expect([850, 12_000, 72_000, 7_500_000].map(formatDuration)).toEqual([
      "850 ms",
      "12s",
      "1m 12s",
      "2h 5m",
    ]);
  });
});

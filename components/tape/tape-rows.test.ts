import { describe, expect, it } from "vitest";
import type { TapeEvent } from "@/server/wire/events";
import { buildTapeRows, type TapeListRow } from "./tape-rows";

const ev = (
  seq: number,
  type = "note",
  body: unknown = { kind: "STATUS", text: "x" },
  sessionId = "s1",
): TapeEvent => ({
  id: `e${seq}`,
  podId: "p",
  seq,
  type,
  actor: "claude",
  role: null,
  ts: null,
  receivedAt: new Date(1_700_000_000_000 + seq * 1000).toISOString(),
  body,
  meta: { sessionId },
  prevHash: "",
  hash: "",
});
const call = (seq: number, id: string, phase: string) =>
  ev(seq, "tool.call", { toolUseId: id, tool: "Bash", phase, input: "ls" });
const label = (r: TapeListRow | undefined) =>
  !r
    ? "none"
    : r.kind === "event"
      ? `${r.event ? "e" : "?"}${r.seq}`
      : r.kind === "turn"
        ? `turn${r.seq}${r.expanded ? "+" : ""}`
        : `${r.kind}${r.seq}`;
const all = (m: ReturnType<typeof buildTapeRows>) =>
  Array.from({ length: m.count }, (_, i) => label(m.at(i)));

// seqs 1–2 notes, 3–7 a turn (prompt, two calls), 8 the checkpoint; a tape of 1000 of which 991–1000 are live.
const turn = [
  ev(3, "prompt.submitted", { chars: 2 }),
  call(4, "a", "started"),
  call(5, "a", "succeeded"),
  call(6, "b", "started"),
  call(7, "b", "failed"),
  ev(8, "checkpoint", { completed: [], next: [], blocked: [] }),
];
const early = [ev(1), ev(2), ...turn];
const live = Array.from({ length: 10 }, (_, k) => ev(991 + k));

describe("buildTapeRows", () => {
  it("keeps one row per seq, newest first, when nothing folds (the tape as it was)", () => {
    const m = buildTapeRows({
      head: 12,
      loaded: [ev(12), ev(11), ev(9)],
      grouped: true,
      expanded: new Set(),
    });
    expect(all(m)).toEqual(["e12", "e11", "?10", "e9", "?8", "?7", "?6", "?5", "?4", "?3", "?2", "?1"]);
    expect([12, 10, 1, 13].map(m.indexOf)).toEqual([0, 2, 11, -1]);
  });

  it("folds a loaded turn into one row, placeholders for the unloaded seqs between", () => {
    const m = buildTapeRows({ head: 1000, loaded: [...live, ...early], grouped: true, expanded: new Set() });
    expect(m.count).toBe(10 + 982 + 4);
    expect([0, 9, 10, 991, 992, 993, 994, 995, 996].map((i) => label(m.at(i)))).toEqual([
      "e1000",
      "e991",
      "?990",
      "?9",
      "e8",
      "turn3",
      "e2",
      "e1",
      "none",
    ]);
    // Any event of the folded turn is shown by its row; the turn stands for seqs 3–7.
    expect([3, 4, 7, 8].map(m.indexOf)).toEqual([993, 993, 993, 992]);
    expect(m.span(m.at(993)!)).toEqual([3, 7]);
  });

  it("lists an expanded turn's calls below it, oldest first, each call's pre and post on its row", () => {
    const m = buildTapeRows({ head: 8, loaded: early, grouped: true, expanded: new Set(["s1:3"]) });
    expect(all(m)).toEqual(["e8", "turn3+", "call4", "call6", "e2", "e1"]);
    expect([3, 4, 5, 6, 7].map(m.indexOf)).toEqual([1, 2, 2, 3, 3]);
  });

  it("shows every event on its own row when not grouped", () => {
    const m = buildTapeRows({ head: 8, loaded: early, grouped: false, expanded: new Set(["s1:3"]) });
    expect(all(m)).toEqual(["e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"]);
  });

  it("joins a turn cut by an unloaded page once the page arrives", () => {
    const cut = buildTapeRows({
      head: 8,
      loaded: [...early.slice(0, 3), ...early.slice(5)],
      grouped: true,
      expanded: new Set(),
    });
    expect(all(cut)).toEqual(["e8", "turn6", "?5", "?4", "turn3", "e2", "e1"]);
    const whole = buildTapeRows({ head: 8, loaded: early, grouped: true, expanded: new Set() });
    expect(all(whole)).toEqual(["e8", "turn3", "e2", "e1"]);
  });
});

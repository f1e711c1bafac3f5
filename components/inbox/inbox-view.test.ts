import { describe, expect, it } from "vitest";
import type { InboxEntry } from "@/server/wire/views";
import { PAGE, agentOf, shapeInbox, type InboxFilters } from "./inbox-view";

const base: InboxFilters = { by: "pod", muted: false };
let seq = 0;
function escalation(
  pod: string,
  agent: string,
  question: string,
  extra: Partial<InboxEntry> = {},
): InboxEntry {
  seq++;
  return {
    id: `q-${seq}`,
    seq,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
    kind: "escalation",
    title: question,
    subject: { kind: "escalation", id: `q-${seq}` },
    context: {
      kind: "escalation",
      escalationKind: "intent",
      question,
      askedBy: agent,
      options: [],
      task: null,
      evidence: [],
    },
    podId: pod,
    podName: `Pod ${pod}`,
    canAct: true,
    blockedBy: [],
    ...extra,
  };
}
function notice(pod: string, title: string): InboxEntry {
  return {
    ...escalation(pod, "x", title),
    kind: "notice",
    context: null,
    subject: { kind: "notice", id: title },
  };
}

describe("shapeInbox", () => {
  const items = [
    ...Array.from({ length: 60 }, (_, i) => escalation("b", i % 2 ? "codex" : "claude", `Question ${i}`)),
    ...Array.from({ length: 5 }, (_, i) => escalation("a", "claude", `Deploy ${i}?`)),
    notice("a", "A token expires"),
  ];

  it("groups by pod in name order, each group's count over every item, a page of each", () => {
    const v = shapeInbox(items, base);
    expect(v.groups.map((g) => [g.label, g.count, g.items.length])).toEqual([
      ["Pod a", 6, 6],
      ["Pod b", 60, PAGE],
    ]);
    expect(v.total).toBe(66);
    expect(shapeInbox(items, base, { b: 50 }).groups[1]!.items).toHaveLength(50);
  });

  it("groups by agent (items with none last) and by kind", () => {
    const byAgent = shapeInbox(items, { ...base, by: "agent" });
    expect(byAgent.groups.map((g) => [g.key, g.count])).toEqual([
      ["claude", 35],
      ["codex", 30],
      ["-", 1],
    ]);
    expect(byAgent.groups[2]!.label).toBe("No agent");
    const byKind = shapeInbox(items, { ...base, by: "kind" });
    expect(byKind.groups.map((g) => [g.label, g.count])).toEqual([
      ["Escalations", 65],
      ["Notices", 1],
    ]);
  });

  it("filters by pod, agent and kind, and searches the words; the options count the whole inbox", () => {
    const v = shapeInbox(items, { ...base, pod: "b", agent: "codex", q: "question 1" });
    // Questions 1, 11, 13, 15, 17, 19 are codex's (odd) and contain "question 1".
    expect(v.matched).toBe(6);
    expect(v.groups[0]!.items.map((i) => i.title)).toEqual(
      [1, 11, 13, 15, 17, 19].map((n) => `Question ${n}`),
    );
    expect(v.options.pod).toEqual([
      { value: "a", label: "Pod a", count: 6 },
      { value: "b", label: "Pod b", count: 60 },
    ]);
    expect(shapeInbox(items, { ...base, kind: "notice" }).matched).toBe(1);
    expect(shapeInbox(items, { ...base, agent: "-" }).matched).toBe(1);
    expect(shapeInbox(items, { ...base, q: "DEPLOY" }).matched).toBe(5);
    expect(shapeInbox(items, { ...base, q: "no such words" }).groups).toEqual([]);
  });

  it("puts a deadline first (soonest first), then the item that waited longest", () => {
    const late = escalation("c", "claude", "late", { due: { at: "2026-02-02T00:00:00Z", then: "remind" } });
    const soon = escalation("c", "claude", "soon", { due: { at: "2026-02-01T00:00:00Z", then: "remind" } });
    const old = escalation("c", "claude", "old", { at: "2025-01-01T00:00:00Z" });
    const v = shapeInbox([escalation("c", "claude", "new"), late, old, soon], base);
    expect(v.groups[0]!.items.map((i) => i.title)).toEqual(["soon", "late", "old", "new"]);
  });

  it("leaves muted items out unless asked, and counts them", () => {
    const muted = { ...escalation("a", "claude", "quiet"), muted: true };
    expect(shapeInbox([...items, muted], base)).toMatchObject({ total: 66, muted: 1 });
    expect(shapeInbox([...items, muted], { ...base, muted: true })).toMatchObject({ total: 67, matched: 67 });
  });

  it("finds an item's agent in what backs it", () => {
    expect(agentOf(items[0]!)).toBe("claude");
    expect(agentOf(notice("a", "n"))).toBeNull();
  });
});

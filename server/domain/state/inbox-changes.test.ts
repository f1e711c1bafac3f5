import { describe, expect, it } from "vitest";
import { inboxChanges } from "./inbox-changes";
import { emptyPodState, type InboxItem } from "./pod-state";

const item = (id: string, title = id): InboxItem => ({ id, seq: 1, at: "2026-11-23T00:00:00.000Z", kind: "escalation", title, subject: { kind: "escalation", id } });

describe("inboxChanges", () => {
  it("reports items that arrived and items that left", () => {
    const before = { ...emptyPodState(), inbox: { a: item("a"), b: item("b") } };
    const after = { ...emptyPodState(), inbox: { b: item("b"), c: item("c") } };
    expect(inboxChanges(before, after)).toEqual({ opened: [item("c")], closed: ["a"] });
  });

  it("reports an item whose content changed, not one rebuilt unchanged", () => {
    const before = { ...emptyPodState(), inbox: { a: item("a"), b: item("b") } };
    const after = { ...emptyPodState(), inbox: { a: item("a"), b: item("b", "new title") } };
    expect(inboxChanges(before, after)).toEqual({ opened: [item("b", "new title")], closed: [] });
  });

  it("is empty when the inbox is untouched", () => {
    const s = { ...emptyPodState(), inbox: { a: item("a") } };
    expect(inboxChanges(s, { ...s, seq: 2 })).toEqual({ opened: [], closed: [] });
  });
});

import { describe, expect, it } from "vitest";
import { inboxChanges } from "./inbox-changes";
import { emptyPodState, type InboxItem } from "./pod-state";
import { with_, without } from "./rules";

const item = (id: string, title = id): InboxItem => ({
  id,
  seq: 1,
  at: "2026-11-23T00:00:00.000Z",
  kind: "escalation",
  title,
  subject: { kind: "escalation", id },
});

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

  it("names the change of a large inbox (a shared record) and nothing else", () => {
    let inbox: Record<string, InboxItem> = {};
    for (let i = 0; i < 50; i++) inbox = with_(inbox, `i${i}`, item(`i${i}`));
    const before = { ...emptyPodState(), inbox };
    const after = {
      ...before,
      inbox: without(with_(with_(inbox, "new", item("new")), "i3", item("i3", "new title")), "i7"),
    };
    expect(inboxChanges(before, after)).toEqual({
      opened: [item("i3", "new title"), item("new")],
      closed: ["i7"],
    });
  });
});

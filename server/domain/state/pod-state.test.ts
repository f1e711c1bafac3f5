import { describe, expect, it } from "vitest";
import { ZEventInput } from "../events/event-schemas";
import { applyEvent } from "./apply-event";
import { copyPodState, emptyPodState, type AppliedEvent, type PodState } from "./pod-state";

const at = (seq: number, e: unknown): AppliedEvent => ({
  ...(ZEventInput.parse(e) as AppliedEvent),
  seq,
  receivedAt: "2026-01-01T00:00:00.000Z",
});

describe("copyPodState", () => {
  it("copies every field of a state, in order, and nothing else: a new object, the same values", () => {
    const s = emptyPodState();
    const copy = copyPodState(s);
    expect(copy).not.toBe(s);
    expect(Object.keys(copy)).toEqual(Object.keys(s));
    for (const key of Object.keys(s) as (keyof PodState)[]) expect(copy[key]).toBe(s[key]);
  });

  it("leaves the fold pure: the state an event is applied to is not changed, whatever it copies", () => {
    let s = applyEvent(
      emptyPodState(),
      at(1, { type: "member.joined", actor: "h", body: { memberId: "a", kind: "agent", displayName: "A" } }),
    );
    const before = JSON.stringify(s);
    const after = applyEvent(s, at(2, { type: "note", actor: "a", body: { kind: "STATUS", text: "ok" } }));
    expect(JSON.stringify(s)).toBe(before);
    expect(after.seq).toBe(2);
    expect(Object.keys(after)).toEqual(Object.keys(s));
    const scope = { scope: "ship it", successCriteria: ["green"] };
    s = applyEvent(after, at(3, { type: "pod.scope_agreed", actor: "h", body: scope }));
    expect(after.seq).toBe(2);
    expect(after.scope).toBeNull();
    expect(s.scope).toMatchObject(scope);
  });
});

import { describe, expect, it } from "vitest";
import { GENESIS_HASH } from "./hash-chain";
import { planGroup } from "./plan-group";
import type { NewEvent, StoredRef } from "./plan-append";
import { emptyPodState } from "./state/pod-state";

const ev = (id: string): NewEvent => ({
  id,
  type: "note",
  actor: "a",
  role: null,
  ts: null,
  body: "{}",
  meta: null,
  event: { type: "note", actor: "a", body: { kind: "STATUS", text: "x" } },
});
const SEED = { kind: "system", name: "a test" } as const;
const NOW = "2026-11-22T00:00:00.000Z";
const empty = { head: { seq: 0, hash: GENESIS_HASH }, state: emptyPodState() };

describe("planGroup", () => {
  it("chains requests for the same pod in order and keeps pods apart", () => {
    const plan = planGroup(
      [
        { podId: "p", events: [ev("a")], as: SEED },
        { podId: "q", events: [ev("b")], as: SEED },
        { podId: "p", events: [ev("c"), ev("d")], as: SEED },
      ],
      new Map([
        ["p", empty],
        ["q", empty],
      ]),
      new Map(),
      NOW,
    );
    expect(plan.rows.map((r) => [r.podId, r.seq])).toEqual([
      ["p", 1],
      ["q", 1],
      ["p", 2],
      ["p", 3],
    ]);
    expect(plan.rows[2]!.prevHash).toBe(plan.rows[0]!.hash);
    expect(plan.heads.get("p")!.seq).toBe(3);
    expect(plan.states.get("p")!.seq).toBe(3);
    expect(plan.touched.sort()).toEqual(["p", "q"]);
    // One outbox entry per pod, covering exactly the seqs the group added to it.
    expect(plan.outbox.map((o) => [o.podId, o.fromSeq, o.toSeq]).sort()).toEqual([
      ["p", 1, 3],
      ["q", 1, 1],
    ]);
  });

  it("refuses one request alone: an unknown pod or a taken id adds nothing and leaves the others", () => {
    const taken: StoredRef = { id: "x", podId: "other", seq: 1, hash: "h", type: "note", actor: "a" };
    const plan = planGroup(
      [
        { podId: "missing", events: [ev("a")], as: SEED },
        { podId: "p", events: [ev("b"), ev("x")], as: SEED },
        { podId: "p", events: [ev("c")], as: SEED },
      ],
      new Map([["p", empty]]),
      new Map([["x", taken]]),
      NOW,
    );
    expect(plan.outcomes.map((o) => (o.ok ? "ok" : o.error.status))).toEqual([404, 409, "ok"]);
    expect(plan.rows.map((r) => [r.id, r.seq])).toEqual([["c", 1]]);
  });

  it("refuses a request whose event breaks a pod rule, and nothing of it is planned", () => {
    const bad: NewEvent = {
      ...ev("h"),
      type: "handoff",
      event: { type: "handoff", actor: "a", body: { to: "nobody", reason: "r" } },
    };
    const plan = planGroup(
      [
        { podId: "p", events: [ev("a"), bad], as: SEED },
        { podId: "p", events: [ev("b")], as: SEED },
      ],
      new Map([["p", empty]]),
      new Map(),
      NOW,
    );
    expect(plan.outcomes[0]).toMatchObject({ ok: false, error: { status: 422, code: "unknown_member" } });
    expect(plan.rows.map((r) => [r.id, r.seq])).toEqual([["b", 1]]);
  });

  it("treats an id repeated by a later request of the group as a replay", () => {
    const plan = planGroup(
      [
        { podId: "p", events: [ev("a")], as: SEED },
        { podId: "p", events: [ev("a")], as: SEED },
      ],
      new Map([["p", empty]]),
      new Map(),
      NOW,
    );
    expect(plan.rows).toHaveLength(1);
    const [first, second] = plan.outcomes;
    expect(first!.ok && second!.ok && second!.acks).toEqual(first!.ok && first!.acks);
  });

  it("refuses a person's request alone once they are not one of the pod's people, under the lock", () => {
    const ana = { kind: "user", userId: "u", email: "ana@x", name: "Ana", isAdmin: false } as const;
    const said = (id: string): NewEvent => ({
      ...ev(id),
      actor: "ana@x",
      event: { ...ev(id).event, actor: "ana@x" },
    });
    const withAna = {
      ...empty,
      state: {
        ...emptyPodState(),
        members: {
          "ana@x": {
            memberId: "ana@x",
            kind: "human" as const,
            displayName: "Ana",
            roles: [],
            access: "approver" as const,
            joinedSeq: 1,
          },
        },
      },
    };
    const withoutAna = {
      ...empty,
      state: {
        ...emptyPodState(),
        members: {
          bot: {
            memberId: "bot",
            kind: "agent" as const,
            displayName: "Bot",
            roles: [],
            access: null,
            joinedSeq: 1,
          },
        },
      },
    };
    const plan = planGroup(
      [
        { podId: "p", events: [said("a")], as: ana },
        { podId: "q", events: [said("b")], as: ana },
        { podId: "q", events: [ev("c")], as: SEED },
        { podId: "new", events: [said("d")], as: ana },
      ],
      new Map([
        ["p", withAna],
        ["q", withoutAna],
        ["new", empty],
      ]),
      new Map(),
      NOW,
    );
    expect(plan.outcomes.map((o) => (o.ok ? "ok" : `${o.error.status} ${o.error.code}`))).toEqual([
      "ok",
      "403 forbidden",
      "ok",
      "ok",
    ]);
    expect(plan.rows.map((r) => r.id)).toEqual(["a", "c", "d"]); // a pod with no member yet takes its creator's first events
    const siteAdmin = { ...ana, isAdmin: true };
    expect(
      planGroup(
        [{ podId: "q", events: [said("e")], as: siteAdmin }],
        new Map([["q", withoutAna]]),
        new Map(),
        NOW,
      ).outcomes[0]!.ok,
    ).toBe(true);
  });
});

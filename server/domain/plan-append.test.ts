import { describe, expect, it } from "vitest";
import { GENESIS_HASH, hashEvent } from "./hash-chain";
import { planAppend, type NewEvent, type StoredRef } from "./plan-append";
import { AppError } from "./errors";

const ev = (id: string): NewEvent => ({
  id,
  type: "note",
  actor: "a",
  role: null,
  ts: null,
  body: '{"kind":"STATUS","text":"x"}',
  meta: null,
  event: { type: "note", actor: "a", body: { kind: "STATUS", text: "x" } },
});
const NOW = "2026-11-22T00:00:00.000Z";

describe("planAppend", () => {
  it("numbers new events after the head and chains their hashes", () => {
    const plan = planAppend("p", { seq: 0, hash: GENESIS_HASH }, [ev("a"), ev("b")], new Map(), NOW);
    expect(plan.rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(plan.rows[0]!.prevHash).toBe(GENESIS_HASH);
    expect(plan.rows[1]!.prevHash).toBe(plan.rows[0]!.hash);
    expect(plan.rows[1]!.hash).toBe(hashEvent(plan.rows[1]!));
    expect(plan.head).toEqual({ seq: 2, hash: plan.rows[1]!.hash });
    expect(plan.acks).toEqual(plan.rows.map((r) => ({ id: r.id, seq: r.seq, hash: r.hash })));
  });

  it("answers a replayed id with its original seq and hash, writing nothing for it", () => {
    const stored: StoredRef = { id: "a", podId: "p", seq: 7, hash: "h7", type: "note", actor: "a" };
    const plan = planAppend("p", { seq: 9, hash: "h9" }, [ev("a"), ev("c")], new Map([["a", stored]]), NOW);
    expect(plan.acks[0]).toEqual({ id: "a", seq: 7, hash: "h7" });
    expect(plan.rows.map((r) => [r.id, r.seq, r.prevHash])).toEqual([["c", 10, "h9"]]);
  });

  it("refuses an id that belongs to another pod", () => {
    const stored: StoredRef = { id: "a", podId: "other", seq: 1, hash: "h", type: "note", actor: "a" };
    try {
      planAppend("p", { seq: 0, hash: GENESIS_HASH }, [ev("a")], new Map([["a", stored]]), NOW);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(409);
      expect((e as AppError).code).toBe("event_id_taken");
    }
  });

  it("refuses an id another member (or another type) of the pod already used: a guessed id must not swallow the real event", () => {
    for (const other of [
      { actor: "b", type: "note" },
      { actor: "a", type: "tool.call" },
    ]) {
      const stored: StoredRef = { id: "a", podId: "p", seq: 1, hash: "h1", ...other };
      expect(() => planAppend("p", { seq: 1, hash: "h1" }, [ev("a")], new Map([["a", stored]]), NOW)).toThrow(
        expect.objectContaining({ status: 409, code: "event_id_taken" }),
      );
    }
  });

  it("leaves the head alone when everything was a replay", () => {
    const stored: StoredRef = { id: "a", podId: "p", seq: 1, hash: "h1", type: "note", actor: "a" };
    const plan = planAppend("p", { seq: 1, hash: "h1" }, [ev("a")], new Map([["a", stored]]), NOW);
    expect(plan.rows).toEqual([]);
    expect(plan.head).toEqual({ seq: 1, hash: "h1" });
  });
});

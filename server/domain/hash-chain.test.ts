import { describe, expect, it } from "vitest";
import {
  ChainWalker,
  GENESIS_HASH,
  canonicalEvent,
  canonicalEventSlow,
  hashEvent,
  type ChainedEvent,
} from "./hash-chain";

function chain(n: number) {
  const out: (ChainedEvent & { hash: string })[] = [];
  let prevHash = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const e: ChainedEvent = {
      id: `id-${seq}`,
      podId: "p",
      seq,
      type: "note",
      actor: "a",
      role: null,
      ts: null,
      receivedAt: "2026-01-01T00:00:00.000Z",
      body: `{"n":${seq}}`,
      meta: null,
      prevHash,
    };
    const hash = hashEvent(e);
    out.push({ ...e, hash });
    prevHash = hash;
  }
  return out;
}

describe("hashEvent", () => {
  it("hashes exactly canonicalJson of the stored fields", () => {
    for (const e of chain(3)) {
      for (const variant of [
        e,
        { ...e, role: "reviewer", ts: "2026-01-01T00:00:00Z", actor: 'quote " and \\ and \u2028' },
        { ...e, meta: '{"taskId":"t1"}' },
      ]) {
        expect(canonicalEvent(variant)).toBe(canonicalEventSlow(variant));
      }
    }
  });
  it("is a hex SHA-256 that changes with any field, including prevHash", () => {
    const [e] = chain(1);
    expect(e!.hash).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [
      { body: '{"n":2}' },
      { actor: "b" },
      { seq: 2 },
      { prevHash: "f".repeat(64) },
      { role: "reviewer" },
      { ts: "2026-01-01T00:00:00Z" },
      { meta: "{}" },
    ]) {
      expect(hashEvent({ ...e!, ...change })).not.toBe(e!.hash);
    }
  });
});

describe("ChainWalker", () => {
  it("accepts an intact chain", () => {
    const w = new ChainWalker();
    for (const e of chain(5)) expect(w.push(e)).toBe(true);
    expect(w.result()).toEqual({ ok: true, checked: 5 });
  });
  it("reports the first event whose content changed", () => {
    const events = chain(5);
    events[2] = { ...events[2]!, body: '{"n":"forged"}' };
    const w = new ChainWalker();
    events.forEach((e) => w.push(e));
    expect(w.result()).toEqual({ ok: false, checked: 2, firstBadSeq: 3 });
  });
  it("reports a re-hashed forgery at the next event, whose link no longer matches", () => {
    const events = chain(4);
    const forged = { ...events[1]!, body: '{"n":"forged"}' };
    events[1] = { ...forged, hash: hashEvent(forged) };
    const w = new ChainWalker();
    events.forEach((e) => w.push(e));
    expect(w.result()).toEqual({ ok: false, checked: 2, firstBadSeq: 3 });
  });
  it("reports a missing event as the seq that should have come", () => {
    const events = chain(4);
    events.splice(1, 1);
    const w = new ChainWalker();
    events.forEach((e) => w.push(e));
    expect(w.result()).toEqual({ ok: false, checked: 1, firstBadSeq: 2 });
  });
});

import { describe, expect, it } from "vitest";
import type { StoredEvent } from "../plan-append";
import { toAppliedEvent } from "./stored-event";

const row = (over: Partial<StoredEvent>): StoredEvent =>
  ({
    id: "e1",
    podId: "p",
    seq: 7,
    type: "tool.call",
    actor: "impl",
    role: null,
    ts: null,
    receivedAt: "2026-11-01T08:00:00.000Z",
    body: '{"toolUseId":"t1","tool":"Bash","phase":"started"}',
    meta: '{"sessionId":"s1"}',
    prevHash: "a".repeat(64),
    hash: "b".repeat(64),
    ...over,
  }) as StoredEvent;

/** What the rows read as before: the meta spread first, then the row's fields. */
const spread = (r: StoredEvent) => ({
  ...(r.meta ? (JSON.parse(r.meta) as Record<string, unknown>) : {}),
  id: r.id,
  type: r.type,
  actor: r.actor,
  ...(r.role ? { role: r.role } : {}),
  ...(r.ts ? { ts: r.ts } : {}),
  body: JSON.parse(r.body) as unknown,
  seq: r.seq,
  receivedAt: r.receivedAt,
});

describe("toAppliedEvent", () => {
  it.each([
    ["meta, no role or ts", {}],
    ["no meta", { meta: null }],
    ["role and ts", { role: "implementer", ts: "2026-11-01T07:59:59.000Z" }],
    ["meta naming a row field (the row wins, in meta's place)", { meta: '{"seq":1,"taskId":"t","id":"x"}' }],
    ["meta with __proto__ as a key", { meta: '{"__proto__":{"polluted":true},"sessionId":"s"}' }],
    ["meta that is no object", { meta: "null" }],
  ])("reads as the spread did, keys in the same order: %s", (_, over) => {
    const r = row(over as Partial<StoredEvent>);
    const e = toAppliedEvent(r) as unknown as Record<string, unknown>;
    expect(Object.keys(e)).toEqual(Object.keys(spread(r)));
    expect(JSON.stringify(e)).toBe(JSON.stringify(spread(r)));
    expect(Object.getPrototypeOf(e)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

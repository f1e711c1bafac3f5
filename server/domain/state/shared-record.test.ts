import { describe, expect, it } from "vitest";
import { changedKeys, isShared, sizeOf, toShared, withKey, withoutKey } from "./shared-record";

type V = { n: number };
/** A tiny deterministic generator, so a failure names its seed. */
const rng = (seed: number) => () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
/** Ids like real ones, integer-like ones (a plain object lists them first) and Object's own names. */
const KEYS = [
  ...Array.from({ length: 60 }, (_, i) => `task_${i}`),
  "0",
  "7",
  "42",
  "4294967295",
  "constructor",
  "toString",
  "toJSON",
  "__proto__",
];

/** The plain object a record must be indistinguishable from, built as the reducers built it before. */
const plainWith = (r: Record<string, V>, key: string, value: V) => ({ ...r, [key]: value });
const plainWithout = (r: Record<string, V>, key: string) => {
  if (!Object.hasOwn(r, key)) return r;
  const { [key]: _gone, ...rest } = r;
  return rest;
};

describe("shared records", () => {
  it("read, list and serialise exactly as the plain object with the same history", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const next = rng(seed);
      let plain: Record<string, V> = {};
      let shared: Record<string, V> = {};
      for (let step = 0; step < 400; step++) {
        const key = KEYS[Math.floor(next() * KEYS.length)]!;
        if (next() < 0.25) [plain, shared] = [plainWithout(plain, key), withoutKey(shared, key)];
        else {
          const value = { n: step };
          [plain, shared] = [plainWith(plain, key, value), withKey(shared, key, value)];
        }
        expect(JSON.stringify(shared), `seed ${seed} step ${step}`).toBe(JSON.stringify(plain));
      }
      expect(isShared(shared)).toBe(true);
      expect(Object.keys(shared)).toEqual(Object.keys(plain));
      expect(Object.values(shared)).toEqual(Object.values(plain));
      expect({ ...shared }).toEqual(plain);
      expect(sizeOf(shared)).toBe(Object.keys(plain).length);
      for (const key of KEYS) {
        expect(Object.hasOwn(shared, key)).toBe(Object.hasOwn(plain, key));
        expect(key in shared).toBe(key in plain);
        if (Object.hasOwn(plain, key)) expect(shared[key]).toBe(plain[key]);
      }
      expect(shared.hasOwnProperty).toBe(Object.prototype.hasOwnProperty);
    }
  });

  it("never changes a record an update was made from", () => {
    let r: Record<string, V> = {};
    const versions: { record: Record<string, V>; json: string }[] = [];
    for (let i = 0; i < 300; i++) {
      r = i % 7 === 6 ? withoutKey(r, `task_${i - 3}`) : withKey(r, `task_${i % 120}`, { n: i });
      versions.push({ record: r, json: JSON.stringify(r) });
    }
    for (const v of versions) expect(JSON.stringify(v.record)).toBe(v.json);
  });

  it("keeps values that are null or falsy, and the entries of a plain record it starts from", () => {
    const start = Object.fromEntries(KEYS.slice(0, 20).map((k, i) => [k, i % 2 ? null : 0]));
    const r = withKey(start as Record<string, number | null>, "task_99", null);
    expect(isShared(r)).toBe(true);
    expect(r.task_1).toBeNull();
    expect(r.task_0).toBe(0);
    expect(JSON.stringify(r)).toBe(JSON.stringify({ ...start, task_99: null }));
    expect(start).not.toHaveProperty("task_99");
  });

  it("are built from a large plain record (a parsed snapshot's) with its entries and order", () => {
    const keys = [
      ...Array.from({ length: 5000 }, (_, i) => `e${i}`),
      "task_332789",
      "task_529192",
      "12",
      "3",
      ...KEYS,
    ];
    const plain = Object.fromEntries(keys.map((k, i) => [k, { n: i }]));
    const shared = toShared(plain);
    expect(JSON.stringify(shared)).toBe(JSON.stringify(plain));
    expect(sizeOf(shared)).toBe(Object.keys(plain).length);
    for (const k of keys) expect(shared[k]).toBe(plain[k]);
    const next = withKey(shared, "task_529192", { n: -1 });
    expect([next.task_332789, next.task_529192, shared.task_529192]).toEqual([
      plain.task_332789,
      { n: -1 },
      plain.task_529192,
    ]);
  });

  it("refuses writes in place", () => {
    const r = toShared(Object.fromEntries(KEYS.map((k) => [k, { n: 1 }])));
    expect(() => ((r as Record<string, V>).task_1 = { n: 2 })).toThrow(TypeError);
    expect(() => delete (r as Record<string, V>).task_1).toThrow(TypeError);
    expect(() => Object.defineProperty(r, "x", { value: 1 })).toThrow(TypeError);
    expect(r.task_1).toEqual({ n: 1 });
  });

  it("stay plain objects while small", () => {
    const r = withKey(withKey({} as Record<string, V>, "a", { n: 1 }), "b", { n: 2 });
    expect(isShared(r)).toBe(false);
    expect(r).toEqual({ a: { n: 1 }, b: { n: 2 } });
  });

  it("name the keys set, changed and gone between two versions", () => {
    let a: Record<string, V> = {};
    for (let i = 0; i < 1000; i++) a = withKey(a, `task_${i}`, { n: i });
    let b = withKey(a, "task_5", { n: -5 });
    b = withKey(b, "task_new", { n: 0 });
    b = withoutKey(b, "task_900");
    b = withKey(b, "task_7", a.task_7!); // the very same value: no change
    // In the record's order, as a walk of the plain object would list them.
    expect(changedKeys(a, b)).toEqual({ put: ["task_5", "task_new"], drop: ["task_900"] });
    expect(changedKeys(a, a)).toEqual({ put: [], drop: [] });
    // A plain record (a state parsed from JSON) against a shared one: compared key by key.
    const parsed = JSON.parse(JSON.stringify(a)) as Record<string, V>;
    expect(changedKeys(parsed, b).drop).toEqual(["task_900"]);
    expect(changedKeys(parsed, b).put).toHaveLength(1000);
  });

  it("hold keys whose hashes collide, and many keys", () => {
    // Pairs of ids with the same 32-bit FNV-1a hash: they share one slot as a list.
    const pairs = [
      ["task_332789", "task_529192"],
      ["task_332788", "task_529193"],
    ];
    let r: Record<string, V> = {};
    for (let i = 0; i < 20_000; i++) r = withKey(r, `k${i}`, { n: i });
    const before = r;
    for (const [a, b] of pairs) r = withKey(withKey(r, a!, { n: 1 }), b!, { n: 2 });
    for (const [a, b] of pairs) {
      expect([r[a!], r[b!]]).toEqual([{ n: 1 }, { n: 2 }]);
      const once = withoutKey(r, a!);
      expect([Object.hasOwn(once, a!), once[b!]]).toEqual([false, { n: 2 }]);
      expect(withKey(r, b!, { n: 3 })[a!]).toEqual({ n: 1 });
      expect(changedKeys(r, withKey(r, b!, { n: 3 }))).toEqual({ put: [b], drop: [] });
    }
    expect(changedKeys(before, r).put.sort()).toEqual(pairs.flat().sort());
    for (let i = 0; i < 20_000; i += 7) r = withoutKey(r, `k${i}`);
    expect(sizeOf(r)).toBe(20_000 - Math.ceil(20_000 / 7) + 4);
    expect(r.k1).toEqual({ n: 1 });
    expect(Object.hasOwn(r, "k7")).toBe(false);
    expect(Object.keys(r).slice(0, 3)).toEqual(["k1", "k2", "k3"]);
    expect(Object.keys(r).slice(-4)).toEqual(pairs.flat());
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../domain/canonical-json";
import { toShared } from "../domain/state/shared-record";
import { everyState, historySteps } from "../testing/pod-history";
import {
  canonicalJsonInSlices,
  stringifyInSlices,
  stringifyKeepingTexts,
  type RootTexts,
} from "./json-in-slices";

describe("JSON in slices", () => {
  it("writes JSON.stringify's text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (v) => {
        expect(await stringifyInSlices(v, 0)).toBe(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });

  it("writes it for large containers, values without JSON and toJSON too", async () => {
    const board = Array.from({ length: 300 }, (_, i) => ({
      id: `t${i}`,
      gone: undefined,
      at: new Date(i * 1000),
      list: [undefined, () => 1, i],
    }));
    const v = {
      seq: 3,
      board,
      few: { a: { text: "x".repeat(70_000) }, b: [1] },
      f: () => 1,
      u: undefined,
      date: new Date(0),
    };
    expect(await stringifyInSlices(v, 0)).toBe(JSON.stringify(v));
    expect(await stringifyInSlices([v, undefined, null], 0)).toBe(JSON.stringify([v, undefined, null]));
    expect(await stringifyInSlices("text")).toBe('"text"');
    const runs = {
      list: Array.from({ length: 200 }, (_, i) =>
        i === 77 ? { big: "y".repeat(80_000) } : i % 5 ? { i } : undefined,
      ),
      top: Array.from({ length: 70 }, (_, i) => [i]),
    };
    expect(await stringifyInSlices(runs, 0)).toBe(JSON.stringify(runs));
  });

  it("with the root's entries' texts kept by object, writes every state of a pod's history as it stands", async () => {
    await fc.assert(
      fc.asyncProperty(historySteps(120), async (steps) => {
        // Every entry kept, however short: a reducer that changed a value it was given would make
        // a later text keep the entry's old one, and fail here.
        const kept: RootTexts = new WeakMap();
        for (const state of everyState(steps))
          expect(await stringifyKeepingTexts(state, kept, 0)).toBe(JSON.stringify(state));
      }),
      { numRuns: 15 },
    );
  });

  it("takes a long entry's kept text for its object, and keeps no short one", async () => {
    const kept: RootTexts = new WeakMap();
    const tasks = toShared({ t1: { id: "t1", text: "x".repeat(9000) } });
    const small = { a: 1 };
    await stringifyKeepingTexts({ seq: 1, tasks, small }, kept);
    expect(kept.get(tasks)).toBe(JSON.stringify(tasks));
    expect(kept.has(small)).toBe(false);
    kept.set(tasks, '{"kept":true}');
    expect(await stringifyKeepingTexts({ seq: 2, tasks, small }, kept)).toBe(
      '{"seq":2,"tasks":{"kept":true},"small":{"a":1}}',
    );
  });

  it("keeping texts, writes large, deep and JSON-less values as JSON.stringify does, twice over", async () => {
    const kept: RootTexts = new WeakMap();
    let deep: unknown = { text: "z".repeat(70_000) };
    for (let i = 0; i < 20; i++) deep = { i, deep };
    const v = {
      board: Array.from({ length: 300 }, (_, i) => ({
        id: `t${i}`,
        gone: undefined,
        at: new Date(i * 1000),
      })),
      deep,
      f: () => 1,
      list: [undefined, () => 1, 1],
      date: new Date(0),
    };
    for (const round of [1, 2])
      expect(await stringifyKeepingTexts({ round, ...v }, kept, 0)).toBe(JSON.stringify({ round, ...v }));
  });

  it("gives the event loop back between slices", async () => {
    let turns = 0;
    let done = false;
    const count = () => {
      turns++;
      if (!done) setImmediate(count);
    };
    setImmediate(count);
    await stringifyInSlices({ rows: Array.from({ length: 1000 }, (_, i) => ({ i })) }, 0);
    done = true;
    expect(turns).toBeGreaterThanOrEqual(1000 / 32 - 1); // after every run of 32 entries
  });

  it("writes canonicalJson's text", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (v) => {
        expect(await canonicalJsonInSlices(v, 0)).toBe(canonicalJson(v));
      }),
      { numRuns: 300 },
    );
    const record = {
      b: 1,
      a: undefined,
      events: Array.from({ length: 100 }, (_, i) => ({ z: i, y: [undefined, { d: 1, c: 2 }], x: undefined })),
    };
    expect(await canonicalJsonInSlices(record, 0)).toBe(canonicalJson(record));
    await expect(canonicalJsonInSlices({ list: Array.from({ length: 40 }, () => Infinity) })).rejects.toThrow(
      /non-finite/,
    );
  });
});

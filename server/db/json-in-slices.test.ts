import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../domain/canonical-json";
import { toShared } from "../domain/state/shared-record";
import { everyState, historySteps } from "../testing/pod-history";
import { encodeInSlices } from "../history/state-codec";
import { canonicalJsonInSlices, stringifyInSlices, stringifyKeepingTexts } from "./json-in-slices";
import type { EntryTexts } from "./json-walk";

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

  it("with entries' texts kept by object, writes every state of a pod's history as it stands", async () => {
    await fc.assert(
      fc.asyncProperty(historySteps(120), async (steps) => {
        // A reducer that changed a value it was given would make a later text keep the entry's
        // old one, and fail here.
        const texts: EntryTexts = new WeakMap();
        for (const state of everyState(steps))
          expect(await stringifyKeepingTexts(state, texts)).toBe(JSON.stringify(state));
      }),
      { numRuns: 15 },
    );
  });

  it("takes an entry's kept text for its object, the same texts as a checkpoint's", async () => {
    const texts: EntryTexts = new WeakMap();
    const task = { id: "t1", status: "pending" };
    const state = { seq: 1, tasks: toShared({ t1: task }), list: [task] };
    expect(await stringifyKeepingTexts(state, texts)).toBe(JSON.stringify(state));
    expect(texts.get(task)).toBe(JSON.stringify(task));
    // What is kept is what is written: a text kept for the object stands for it.
    texts.set(task, '{"kept":true}');
    expect(await stringifyKeepingTexts({ ...state, seq: 2 }, texts)).toBe(
      '{"seq":2,"tasks":{"t1":{"kept":true}},"list":[{"kept":true}]}',
    );
    expect(await encodeInSlices(state, undefined, texts)).toContain('"t1",{"kept":true}');
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

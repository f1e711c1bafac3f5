import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toShared } from "../domain/state/shared-record";
import { everyState, historySteps } from "../testing/pod-history";
import type { EntryTexts } from "../db/json-walk";
import { encodeInSlices } from "./state-codec";
import { decodeInSlices } from "./state-decoder";

const roundTrip = async (v: unknown, sliceMs?: number) =>
  decodeInSlices(await encodeInSlices(v, sliceMs), sliceMs);

describe("a checkpoint's text in slices", () => {
  it("decodes to what JSON.parse(JSON.stringify(v)) makes, keys in the same order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (v) => {
        expect(JSON.stringify(await roundTrip(v))).toBe(JSON.stringify(v));
        expect(await roundTrip(v)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it("splits large containers into lines of their own, at any depth", async () => {
    const tasks = Object.fromEntries(
      Array.from({ length: 500 }, (_, i) => [`t${i}`, { id: `t${i}`, tags: ["a", "b"], n: i }]),
    );
    const few = { a: { list: Array.from({ length: 30 }, (_, i) => ({ i, text: "x".repeat(3000) })) }, b: 1 };
    const state = { seq: 7, tasks, nested: { deep: few }, small: { x: { y: [1, 2] } }, empty: {}, none: [] };
    const text = await encodeInSlices(state);
    const containers = text
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l).k);
    // The root and its children; "a" has few entries but ~90 KB of text; "x" is small and set whole.
    expect(containers).toEqual([null, "tasks", "nested", "deep", "a", "list", "small", "empty", "none"]);
    expect(JSON.stringify(await decodeInSlices(text))).toBe(JSON.stringify(state));
  });

  it("writes what JSON.stringify writes for values without JSON", async () => {
    const v = {
      a: undefined,
      f: () => 1,
      list: [undefined, () => 1, 1],
      big: Array.from({ length: 40 }, (_, i) => (i % 2 ? undefined : i)),
    };
    expect(JSON.stringify(await roundTrip(v))).toBe(JSON.stringify(v));
  });

  it("keeps an own __proto__ key as data, never as the prototype", async () => {
    const v = JSON.parse('{"tasks":{"__proto__":{"polluted":true},"x":1},"__proto__":[1,2]}') as Record<
      string,
      unknown
    >;
    const back = (await roundTrip(v)) as Record<string, Record<string, unknown>>;
    expect(JSON.stringify(back)).toBe(JSON.stringify(v));
    expect(Object.hasOwn(back.tasks!, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(back.tasks)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("gives the event loop back between slices", async () => {
    const big = { rows: Array.from({ length: 2000 }, (_, i) => ({ i, text: `row ${i} `.repeat(20) })) };
    let turns = 0;
    const count = () => {
      turns++;
      if (!done) setImmediate(count);
    };
    let done = false;
    setImmediate(count);
    const text = await encodeInSlices(big, 0);
    const encodeTurns = turns;
    await decodeInSlices(text, 0);
    done = true;
    // Encoding gives it back after every entry, decoding after every line (of up to 16 KiB).
    expect(encodeTurns).toBeGreaterThan(1000);
    expect(turns - encodeTurns).toBeGreaterThanOrEqual(text.split("\n").length - 1);
    expect(text.split("\n").length).toBeGreaterThan(20);
  });

  it("refuses text whose lines name no container before them", async () => {
    await expect(decodeInSlices('{"p":-1,"k":null,"a":0}\n[5,"x",1]')).rejects.toThrow(/parent/);
  });

  it("with entries' texts kept by object, encodes every state of a pod's history as it stands", async () => {
    // The texts are kept for a pod's states only because no reducer changes a value it was given:
    // a reducer that did would make a later checkpoint keep an entry's old text, and fail here.
    await fc.assert(
      fc.asyncProperty(historySteps(120), async (steps) => {
        const texts: EntryTexts = new WeakMap();
        for (const state of everyState(steps)) {
          const back = await decodeInSlices(await encodeInSlices(state, undefined, texts));
          expect(JSON.stringify(back)).toBe(JSON.stringify(state));
        }
      }),
      { numRuns: 25 },
    );
  });

  it("reuses the text of an entry whose object it has written before", async () => {
    const texts: EntryTexts = new WeakMap();
    const task = { id: "t1", status: "pending" };
    const state = { seq: 1, tasks: { t1: task } };
    await encodeInSlices(state, undefined, texts);
    expect(texts.get(task)).toBe(JSON.stringify(task));
    // What is kept is what is written: a text kept for the object stands for it.
    texts.set(task, '{"kept":true}');
    expect(await decodeInSlices(await encodeInSlices(state, undefined, texts))).toEqual({
      seq: 1,
      tasks: { t1: { kept: true } },
    });
  });

  it("walks a pod state's shared record as its entries: no line holds a whole 3,000-task plan", async () => {
    const tasks = toShared(
      Object.fromEntries(
        Array.from({ length: 3000 }, (_, i) => [`t${i}`, { id: `t${i}`, text: "x".repeat(300) }]),
      ),
    );
    const state = { seq: 1, tasks };
    const text = await encodeInSlices(state, undefined, new WeakMap());
    expect(Math.max(...text.split("\n").map((l) => l.length))).toBeLessThan(20 * 1024);
    expect(JSON.stringify(await decodeInSlices(text))).toBe(JSON.stringify(state));
  });
});

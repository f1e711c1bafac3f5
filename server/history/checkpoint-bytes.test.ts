import fc from "fast-check";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { toShared } from "../domain/state/shared-record";
import { everyState, historySteps } from "../testing/pod-history";
import { deflatePieces, inflatePieces, keptSegment, type SegmentBytes } from "./checkpoint-bytes";
import type { EntryTexts } from "../db/json-walk";
import { encodeInSlices, encodePieces, type Piece } from "./state-codec";
import { decodeInSlices } from "./state-decoder";

/** What CheckpointStore.put stores and load reads back, with the caches it keeps between checkpoints. */
const caches = () => ({ texts: new WeakMap() as EntryTexts, segments: new WeakMap() as SegmentBytes });
async function stored(state: unknown, c = caches(), keptChars?: number) {
  const pieces = await encodePieces(state, { texts: c.texts, kept: keptSegment(c.segments) });
  return { pieces, ...(await deflatePieces(pieces, c.segments, keptChars)) };
}
const readBack = async (bytes: Uint8Array) => decodeInSlices(await inflatePieces(bytes));
type Tasks = { tasks: Record<string, { text: string }> };

/** The piece written for `of` (an object, or a key of the root). */
const pieceOf = <K>(pieces: Piece<K>[], of: object | string) =>
  pieces.find((p) => (typeof of === "string" ? p.of?.key === of : p.of?.value === of));
const linesOf = <K>(pieces: Piece<K>[], of: object | string) => {
  const piece = pieceOf(pieces, of);
  return piece && "text" in piece ? piece.text : undefined;
};
const plan = (n: number, text = "x".repeat(300)) =>
  toShared(Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { id: `t${i}`, text }])));
const fullFlushed = (text: string) =>
  deflateRawSync(Buffer.from(text, "utf8"), { level: 1, finishFlush: constants.Z_FULL_FLUSH });

describe("a checkpoint's bytes", () => {
  it("are one deflate stream of the codec's text, read by one inflateRaw", async () => {
    const state = { seq: 3, tasks: plan(200), small: { a: [1, 2] }, note: "é ✓" };
    const { bytes, chars } = await stored(state);
    const text = await encodeInSlices(state);
    expect(inflateRawSync(bytes).toString("utf8")).toBe(text);
    expect(chars).toBe(text.length);
    expect(JSON.stringify(await readBack(bytes))).toBe(JSON.stringify(state));
  });

  it("write a segment's lines the same wherever it stands in the state", async () => {
    const tasks = plan(100);
    const before = linesOf(await encodePieces({ seq: 1, tasks }), tasks);
    expect(before).toBeTruthy();
    expect(linesOf(await encodePieces({ seq: 2, added: { a: plan(40) }, more: "x", tasks }), tasks)).toBe(
      before,
    );
  });

  it("reuse the bytes of a large segment of the very object the last checkpoint wrote, without encoding it", async () => {
    const c = caches();
    const tasks = plan(300);
    const first = await stored({ seq: 1, tasks }, c);
    expect(linesOf(first.pieces, tasks)).toBeTruthy();
    // Moved down by a record of many lines before it: its own lines are unchanged.
    const evidence = Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`e${i}`, { i, text: "y".repeat(200) }]),
    );
    const second = await stored({ seq: 2, evidence, tasks, signals: { notes: 5 } }, c);
    expect(pieceOf(second.pieces, tasks)).toHaveProperty("kept");
    expect(await readBack(second.bytes)).toEqual({
      seq: 2,
      evidence,
      tasks: JSON.parse(JSON.stringify(tasks)),
      signals: { notes: 5 },
    });
  });

  it("reuse them only under the key they were written for", async () => {
    const c = caches();
    const tasks = plan(300);
    await stored({ seq: 1, tasks }, c);
    const moved = await stored({ seq: 2, plan: tasks }, c);
    expect(linesOf(moved.pieces, tasks)).toBeTruthy();
    expect(Object.keys((await readBack(moved.bytes)) as object)).toEqual(["seq", "plan"]);
  });

  it("take the bytes kept for an object as its segment: what is kept stands for it", async () => {
    const c = caches();
    const tasks = plan(300);
    await stored({ seq: 1, tasks }, c);
    const sentinel = linesOf(await encodePieces({ seq: 1, tasks: plan(300, "sentinel") }), "tasks")!;
    c.segments.set(tasks, { ...c.segments.get(tasks)!, bytes: fullFlushed(sentinel) });
    const back = (await readBack((await stored({ seq: 2, tasks }, c)).bytes)) as Tasks;
    expect(back.tasks.t0!.text).toBe("sentinel");
  });

  it("make a changed record's segment again, and keep no short segment", async () => {
    const c = caches();
    const small = { a: 1 };
    const tasks = plan(300);
    await stored({ seq: 1, tasks, small }, c);
    expect(c.segments.get(small)).toBeUndefined();
    const changed = plan(300, "changed");
    const second = await stored({ seq: 2, tasks: changed, small }, c);
    expect(second.pieces.every((p) => "text" in p)).toBe(true);
    expect(c.segments.get(changed)!.bytes).not.toEqual(c.segments.get(tasks)!.bytes);
    expect(((await readBack(second.bytes)) as Tasks).tasks.t9!.text).toBe("changed");
  });

  it("read back every state of a pod's history as it stands, with the caches kept across checkpoints", async () => {
    let reused = 0;
    await fc.assert(
      fc.asyncProperty(historySteps(120), async (steps) => {
        const c = caches();
        for (const state of everyState(steps)) {
          // Every segment kept, however small: a reducer that changed a value it was given would
          // make a later checkpoint reuse its old bytes, and fail here.
          const { bytes, pieces } = await stored(state, c, 0);
          reused += pieces.filter((p) => "kept" in p).length;
          expect(JSON.stringify(await readBack(bytes))).toBe(JSON.stringify(state));
        }
      }),
      { numRuns: 15 },
    );
    expect(reused).toBeGreaterThan(1000);
  });
});

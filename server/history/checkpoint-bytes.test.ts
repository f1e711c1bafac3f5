import fc from "fast-check";
import { constants, deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { toShared } from "../domain/state/shared-record";
import { everyState, historySteps } from "../testing/pod-history";
import { deflatePieces, hasSegment, inflatePieces, type SegmentBytes } from "./checkpoint-bytes";
import { decodeInSlices, encodeInSlices, encodePieces, type EntryTexts, type Piece } from "./state-codec";

/** What CheckpointStore.put stores and load reads back, with the caches it keeps between checkpoints. */
const caches = () => ({ texts: new WeakMap() as EntryTexts, segments: new WeakMap() as SegmentBytes });
async function stored(state: unknown, c = caches(), keptChars?: number) {
  const pieces = await encodePieces(state, undefined, c.texts, hasSegment(c.segments));
  return { pieces, ...(await deflatePieces(pieces, c.segments, keptChars)) };
}
type Tasks = { tasks: Record<string, { text: string }> };
/** The segment written for `of` (an object, or a key of the root). */
const segmentOf = (pieces: Piece[], of: object | string) =>
  pieces.find((p) => (typeof of === "string" ? p.of?.key === of : p.of?.value === of));
const readBack = async (bytes: Uint8Array) => decodeInSlices(await inflatePieces(bytes));

const plan = (n: number, text = "x".repeat(300)) =>
  toShared(Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, { id: `t${i}`, text }])));

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
    const segment = async (state: object) => segmentOf(await encodePieces(state), tasks)?.text;
    const before = await segment({ seq: 1, tasks });
    expect(before).toBeTruthy();
    expect(await segment({ seq: 2, added: { a: plan(40) }, more: "x", tasks })).toBe(before);
  });

  it("reuse the bytes of a large segment of the very object the last checkpoint wrote, without encoding it", async () => {
    const c = caches();
    const tasks = plan(300);
    const first = await stored({ seq: 1, tasks }, c);
    expect(segmentOf(first.pieces, tasks)?.text).toBeTruthy();
    const second = await stored({ seq: 2, tasks, signals: { notes: 5 } }, c);
    expect(segmentOf(second.pieces, tasks)?.text).toBeNull();
    expect(await readBack(second.bytes)).toEqual({
      seq: 2,
      tasks: JSON.parse(JSON.stringify(tasks)),
      signals: { notes: 5 },
    });
  });

  it("take the bytes kept for an object as its segment: what is kept stands for it", async () => {
    const c = caches();
    const tasks = plan(300);
    await stored({ seq: 1, tasks }, c);
    const sentinel = segmentOf(await encodePieces({ seq: 1, tasks: plan(300, "sentinel") }), "tasks")!.text!;
    const bytes = deflateRawSync(Buffer.from(sentinel), { level: 1, finishFlush: constants.Z_FULL_FLUSH });
    c.segments.set(tasks, { ...c.segments.get(tasks)!, bytes });
    const back = (await readBack((await stored({ seq: 2, tasks }, c)).bytes)) as Tasks;
    expect(back.tasks.t0!.text).toBe("sentinel");
  });

  it("make a changed record's segment again, and keep small segments with their neighbours", async () => {
    const c = caches();
    const small = { a: 1 };
    const first = await stored({ seq: 1, tasks: plan(300), small }, c);
    expect(c.segments.get(small)).toBeUndefined();
    const second = await stored({ seq: 2, tasks: plan(300, "changed"), small }, c);
    expect(second.pieces.every((p) => p.text !== null)).toBe(true);
    expect(first.bytes).not.toEqual(second.bytes);
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
          reused += pieces.filter((p) => p.text === null).length;
          expect(JSON.stringify(await readBack(bytes))).toBe(JSON.stringify(state));
        }
      }),
      { numRuns: 15 },
    );
    expect(reused).toBeGreaterThan(1000);
  });
});

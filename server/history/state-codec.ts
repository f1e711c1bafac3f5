// A checkpoint's text, written and read in slices. JSON.parse or JSON.stringify of a lived-in
// pod's state (~1.8 MB) is one synchronous step of 20-40 ms: other requests wait for all of it.
// Here the state is lines instead: a container near the top, or a large one, is a line of its
// own, and its other entries follow in lines of up to CHUNK_CHARS, so both ways run a line at a
// time and give the event loop back every few milliseconds. Values are JSON-pure (what
// JSON.parse makes): a decoded state equals JSON.parse(JSON.stringify(state)), keys in order.
//
// A line is either `{"p":parent,"k":key,"a":0|1}` (a container, object or array, filled by the
// lines after it) or `[parent, key, value, key, value, …]` (entries set whole). -1 is the root
// (whose own line has the key null). Each of the root's containers is a segment: its first line
// has the parent -1, and every parent within it counts lines from that first line. So a segment's
// lines are the same wherever it stands, and a checkpoint can reuse a segment written before for
// the same object (checkpoint-bytes.ts). JSON has no raw newline. Read by state-decoder.ts.
import {
  CODEC_SLICE_MS,
  entryText,
  isContainer,
  jsonValue,
  type Container,
  type EntryTexts,
} from "../db/json-walk";
import { TimeSlices } from "../db/time-slices";

/** Bumped whenever the line format changes: part of a checkpoint's key, so text of another format is never read. */
export const CODEC_VERSION = "lines-2";
/** Entries set whole are gathered into lines of about this many characters: a JSON.parse each. */
const CHUNK_CHARS = 16 * 1024;
type Frame = { parent: number; key: string | number | null; value: Container };

export type SegmentOf = { value: object; key: string | number };
/**
 * Lines of a checkpoint, each ending in a newline: one of the root's containers (a segment, `of`
 * it under its key) or the root's other lines. Or, instead of a segment's lines, what `kept` found
 * for it (checkpoint-bytes.ts: the segment's bytes, stored before for the same object and key).
 */
export type Piece<Kept = never> = { text: string; of?: SegmentOf } | { kept: Kept; of: SegmentOf };

export type EncodeOptions<Kept> = {
  /** Work in one turn of the event loop. */
  sliceMs?: number;
  texts?: EntryTexts;
  /** What was kept for a segment of this very object under this key: its lines are then not made. */
  kept?: (of: SegmentOf) => Kept | undefined;
};

/** `value` as lines (see above), with the event loop given back every `sliceMs`. */
export async function encodeInSlices(value: unknown, sliceMs = CODEC_SLICE_MS, texts?: EntryTexts) {
  const pieces = await encodePieces(value, { sliceMs, texts });
  return pieces.map((p) => ("text" in p ? p.text : "")).join("");
}

/** `value` as pieces of lines. */
export async function encodePieces<Kept = never>(
  value: unknown,
  { sliceMs = CODEC_SLICE_MS, texts, kept = () => undefined }: EncodeOptions<Kept> = {},
): Promise<Piece<Kept>[]> {
  if (!isContainer(value)) return [{ text: `${JSON.stringify([-1, null, value])}\n` }];
  const pieces: Piece<Kept>[] = [];
  let lines: string[] = [];
  const endPiece = (of?: SegmentOf) => {
    if (lines.length) pieces.push({ text: `${lines.join("\n")}\n`, ...(of && { of }) });
    lines = [];
  };
  const slices = new TimeSlices(sliceMs);
  // Depth-first, in key order, so decoding sets every container's keys in the same order.
  // `index`: the container's line, counted from its segment's first (-1: the root).
  const walk = async (frame: Frame, depth: number, index: number): Promise<void> => {
    const array = Array.isArray(frame.value);
    const keys: (string | number)[] = array
      ? Array.from({ length: (frame.value as unknown[]).length }, (_, i) => i)
      : Object.keys(frame.value);
    let chunk = "";
    const flush = () => {
      if (chunk) lines.push(`[${index}${chunk}]`);
      chunk = "";
    };
    for (const key of keys) {
      const raw = (frame.value as Record<string | number, unknown>)[key];
      const v = jsonValue(raw, key);
      const text = entryText(v, depth, array, texts);
      if (text === null) {
        flush();
        if (depth > 0) await container({ parent: index, key, value: v as Container }, depth + 1);
        else await segment(raw as object, key, v as Container);
        continue;
      }
      if (text !== undefined) chunk += `,${array ? key : JSON.stringify(key)},${text}`;
      if (chunk.length >= CHUNK_CHARS) flush();
      if (slices.due()) await slices.next();
    }
    flush();
  };
  const container = async (frame: Frame, depth: number) => {
    const index = lines.length;
    lines.push(JSON.stringify({ p: frame.parent, k: frame.key, a: Array.isArray(frame.value) ? 1 : 0 }));
    await walk(frame, depth, index);
  };
  // One of the root's containers, on lines of its own; `raw` is what the state holds (a shared
  // record, not its entries).
  const segment = async (raw: object, key: string | number, v: Container) => {
    endPiece();
    const of = { value: raw, key };
    const found = kept(of);
    if (found !== undefined) pieces.push({ kept: found, of });
    else {
      await container({ parent: -1, key, value: v }, 1);
      endPiece(of);
    }
  };
  lines.push(JSON.stringify({ p: -1, k: null, a: Array.isArray(value) ? 1 : 0 }));
  await walk({ parent: -1, key: null, value }, 0, -1);
  endPiece();
  return pieces;
}

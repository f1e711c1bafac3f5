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
// the same object (checkpoint-bytes.ts). JSON has no raw newline.
import {
  CODEC_SLICE_MS,
  entries,
  hasToJson,
  isContainer,
  jsonValue,
  LARGE_CHARS,
  MAX_WALK_DEPTH,
  SPLIT_ENTRIES,
  type Container,
} from "../db/json-walk";
import { TimeSlices } from "../db/time-slices";

/** Bumped whenever the line format changes: part of a checkpoint's key, so text of another format is never read. */
export const CODEC_VERSION = "lines-2";
/** Entries set whole are gathered into lines of about this many characters: a JSON.parse each. */
const CHUNK_CHARS = 16 * 1024;
type Frame = { parent: number; key: string | number | null; value: Container };

/**
 * The text of entries already written, by object: only for values whose objects never change once
 * made, as a pod's states (reducers make new values and never change their input; ARCHITECTURE.md).
 * A record a checkpoint's event did not touch is the previous state's object, so its entries'
 * text is not made again: on a 3,000-task plan most of a checkpoint's encoding.
 */
export type EntryTexts = WeakMap<object, string>;

/**
 * Lines of a checkpoint: one of the root's containers (a segment, `of` it under `key`) or the
 * root's other lines. `text` is null for a segment `reuse` said it has already (checkpoint-bytes.ts).
 */
export type Piece = { text: string | null; of?: { value: object; key: string | number } };

/** `value` as lines (see above), with the event loop given back every `sliceMs`. */
export async function encodeInSlices(value: unknown, sliceMs = CODEC_SLICE_MS, texts?: EntryTexts) {
  return (await encodePieces(value, sliceMs, texts)).map((p) => p.text).join("");
}

/**
 * `value` as pieces of lines, each ending in a newline. `reuse(value, key)`: whether a segment of
 * this very object under this key was written before and need not be made again.
 */
export async function encodePieces(
  value: unknown,
  sliceMs = CODEC_SLICE_MS,
  texts?: EntryTexts,
  reuse: (value: object, key: string | number) => boolean = () => false,
): Promise<Piece[]> {
  if (!isContainer(value)) return [{ text: `${JSON.stringify([-1, null, value])}\n` }];
  const pieces: Piece[] = [];
  let lines: string[] = [];
  const done = (of?: Piece["of"]) => {
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
      const nested = isContainer(v) && !hasToJson(v);
      // As JSON.stringify does: an object drops what has no JSON (undefined, functions), an array writes null.
      // An entry written before needs neither its size counted nor its text made (EntryTexts).
      const known = nested && texts && depth > 0 ? texts.get(v) : undefined;
      const text =
        known ??
        (nested && (depth < 1 || entries(v) > SPLIT_ENTRIES)
          ? null
          : nested && texts
            ? rememberText(v, texts)
            : (JSON.stringify(v) ?? (array ? "null" : undefined)));
      // A few entries may still be large (a small record of large ones): it is walked too, once its size is known.
      if (
        text === null ||
        (nested && text !== undefined && text.length > LARGE_CHARS && depth < MAX_WALK_DEPTH)
      ) {
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
  // One of the root's containers, on lines of its own; `raw` is what the state holds (a shared record, not its entries).
  const segment = async (raw: object, key: string | number, v: Container) => {
    done();
    if (reuse(raw, key)) pieces.push({ text: null, of: { value: raw, key } });
    else {
      await container({ parent: -1, key, value: v }, 1);
      done({ value: raw, key });
    }
  };
  lines.push(JSON.stringify({ p: -1, k: null, a: Array.isArray(value) ? 1 : 0 }));
  await walk({ parent: -1, key: null, value }, 0, -1);
  done();
  return pieces;
}

/**
 * A container's JSON, kept for its object (EntryTexts). A large one's is not kept: it is walked
 * (its text only said how large it is), and its own entries' texts are kept as they are written.
 */
function rememberText(v: Container, texts: EntryTexts): string {
  const text = JSON.stringify(v);
  if (text.length <= LARGE_CHARS) texts.set(v, text);
  return text;
}

type ContainerLine = { p: number; k: string | number | null; a: 0 | 1 };
type ValueLine = [number, ...unknown[]];

/** The value `encodeInSlices` wrote, rebuilt with the event loop given back every `sliceMs`. */
export async function decodeInSlices(text: string, sliceMs = CODEC_SLICE_MS): Promise<unknown> {
  const slices = new TimeSlices(sliceMs);
  const containers: Container[] = [];
  let root: unknown;
  // A segment's parents count lines from its first.
  let segmentStart = 0;
  const parent = (p: number) => (p < 0 ? root : containers[segmentStart + p]) as Container | undefined;
  for (let at = 0, index = 0; at < text.length; index++) {
    const end = text.indexOf("\n", at);
    const line = JSON.parse(text.slice(at, end < 0 ? text.length : end)) as ContainerLine | ValueLine;
    at = end < 0 ? text.length : end + 1;
    if (Array.isArray(line)) {
      if (line[0] < 0 && line[1] === null) root = line[2];
      else
        for (let i = 1; i < line.length; i += 2)
          setEntry(parent(line[0]), line[i] as string | number, line[i + 1]);
    } else {
      const value: Container = line.a ? [] : {};
      if (line.k === null) root = value;
      else {
        if (line.p < 0) segmentStart = index;
        setEntry(parent(line.p), line.k, value);
        containers[index] = value;
      }
    }
    if (slices.due()) await slices.next();
  }
  return root;
}

function setEntry(into: Container | undefined, key: string | number | null, value: unknown) {
  if (!into || key === null)
    throw new Error("a checkpoint line names a parent that is not a container before it");
  // An own "__proto__" key, as JSON.parse makes it, not the object's prototype.
  if (key === "__proto__")
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else (into as Record<string | number, unknown>)[key] = value;
}

// A checkpoint's text, written and read in slices. JSON.parse or JSON.stringify of a lived-in
// pod's state (~1.8 MB) is one synchronous step of 20-40 ms: other requests wait for all of it.
// Here the state is lines instead: a container near the top, or a large one, is a line of its
// own, and its other entries follow in lines of up to CHUNK_CHARS, so both ways run a line at a
// time and give the event loop back every few milliseconds. Values are JSON-pure (what
// JSON.parse makes): a decoded state equals JSON.parse(JSON.stringify(state)), keys in order.
//
// A line is either `{"p":parent,"k":key,"a":0|1}` (a container, object or array, filled by the
// lines after it) or `[parent, key, value, key, value, …]` (entries set whole). `parent` is the
// index of an earlier container line, -1 for the root (whose key is null). JSON has no raw newline.
import { TimeSlices } from "../db/time-slices";

/** Bumped whenever the line format changes: part of a checkpoint's key, so text of another format is never read. */
export const CODEC_VERSION = "lines-1";
/** Work in one turn of the event loop. */
export const CODEC_SLICE_MS = 5;
/** A container with more entries than this is a line of its own (the root's and its children always are). */
export const SPLIT_ENTRIES = 32;
/** Entries set whole are gathered into lines of about this many characters: a JSON.parse each. */
const CHUNK_CHARS = 16 * 1024;
/** A container whose text is longer than this is walked whatever its entries, down to MAX_WALK_DEPTH. */
export const LARGE_CHARS = 64 * 1024;
export const MAX_WALK_DEPTH = 16;

export type Container = Record<string, unknown> | unknown[];
type Frame = { parent: number; key: string | number | null; value: Container };

export const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;
export const entries = (v: Container) => (Array.isArray(v) ? v.length : Object.keys(v).length);

/**
 * The text of entries already written, by object: only for values whose objects never change once
 * made, as a pod's states (reducers make new values and never change their input; ARCHITECTURE.md).
 * A record a checkpoint's event did not touch is the previous state's object, so its entries'
 * text is not made again: on a 3,000-task plan most of a checkpoint's encoding.
 */
export type EntryTexts = WeakMap<object, string>;

/** `value` as lines (see above), with the event loop given back every `sliceMs`. */
export async function encodeInSlices(
  value: unknown,
  sliceMs = CODEC_SLICE_MS,
  texts?: EntryTexts,
): Promise<string> {
  if (!isContainer(value)) return JSON.stringify([-1, null, value]);
  const lines: string[] = [];
  const slices = new TimeSlices(sliceMs);
  // Depth-first, in key order, so decoding sets every container's keys in the same order.
  const walk = async (frame: Frame, depth: number): Promise<void> => {
    const index = lines.length;
    lines.push(JSON.stringify({ p: frame.parent, k: frame.key, a: Array.isArray(frame.value) ? 1 : 0 }));
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
      const v = jsonValue((frame.value as Record<string | number, unknown>)[key], key);
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
        await walk({ parent: index, key, value: v as Container }, depth + 1);
        continue;
      }
      if (text !== undefined) chunk += `,${array ? key : JSON.stringify(key)},${text}`;
      if (chunk.length >= CHUNK_CHARS) flush();
      if (slices.due()) await slices.next();
    }
    flush();
  };
  await walk({ parent: -1, key: null, value }, 0);
  return lines.join("\n");
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

export const hasToJson = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === "function";

/**
 * What JSON.stringify writes for `v` under `key`: its toJSON's answer when it has one. A pod
 * state's shared record answers with its plain entries (shared-record.ts), which are then walked
 * like any object rather than written whole.
 */
export const jsonValue = (v: unknown, key: string | number): unknown =>
  isContainer(v) && hasToJson(v) ? (v as { toJSON(key: string): unknown }).toJSON(String(key)) : v;

type ContainerLine = { p: number; k: string | number | null; a: 0 | 1 };
type ValueLine = [number, ...unknown[]];

/** The value `encodeInSlices` wrote, rebuilt with the event loop given back every `sliceMs`. */
export async function decodeInSlices(text: string, sliceMs = CODEC_SLICE_MS): Promise<unknown> {
  const slices = new TimeSlices(sliceMs);
  const containers: (Container | undefined)[] = [];
  let root: unknown;
  let at = 0;
  for (let index = 0; at <= text.length; index++) {
    const end = text.indexOf("\n", at);
    const line = JSON.parse(text.slice(at, end < 0 ? text.length : end)) as ContainerLine | ValueLine;
    at = end < 0 ? text.length + 1 : end + 1;
    if (Array.isArray(line)) {
      const into = containers[line[0]];
      if (line[0] < 0) root = line[2];
      else for (let i = 1; i < line.length; i += 2) setEntry(into, line[i] as string | number, line[i + 1]);
    } else {
      const value: Container = line.a ? [] : {};
      containers[index] = value;
      if (line.p < 0) root = value;
      else setEntry(containers[line.p], line.k, value);
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

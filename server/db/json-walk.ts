// How the sliced JSON writers and readers walk a value (../history/state-codec.ts for checkpoints,
// ./json-in-slices.ts for responses and snapshots): which containers are walked entry by entry and
// which are written by one JSON.stringify, what JSON.stringify would see for a value, and the
// entries' texts both writers keep.

/** Work in one turn of the event loop. */
export const CODEC_SLICE_MS = 5;
/** A container with more entries than this is walked (the root's and its children always are). */
export const SPLIT_ENTRIES = 32;
/** A container whose text is longer than this is walked whatever its entries, down to MAX_WALK_DEPTH. */
export const LARGE_CHARS = 64 * 1024;
export const MAX_WALK_DEPTH = 16;

export type Container = Record<string, unknown> | unknown[];

export const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;
export const entries = (v: Container) => (Array.isArray(v) ? v.length : Object.keys(v).length);

export const hasToJson = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === "function";

/**
 * What JSON.stringify writes for `v` under `key`: its toJSON's answer when it has one. A pod
 * state's shared record answers with its plain entries (../domain/state/shared-record.ts), which
 * are then walked like any object rather than written whole.
 */
export const jsonValue = (v: unknown, key: string | number): unknown =>
  isContainer(v) && hasToJson(v) ? (v as { toJSON(key: string): unknown }).toJSON(String(key)) : v;

/**
 * The text of entries already written, by object: only for values whose objects never change once
 * made, as a pod's states (reducers make new values and never change their input; ARCHITECTURE.md).
 * A record no event touched since is the previous state's object, so its entries' text is not made
 * again: on a 3,000-task plan most of a checkpoint's or a snapshot's writing.
 */
export type EntryTexts = WeakMap<object, string>;

/**
 * What a writer writes for `v` (as jsonValue gave it), an entry at `depth`: its text; null when it
 * is walked entry by entry (the root's children, a container of many entries or a long text, down
 * to MAX_WALK_DEPTH); undefined when JSON.stringify drops it (an object's member without JSON).
 */
export function entryText(
  v: unknown,
  depth: number,
  inArray: boolean,
  texts?: EntryTexts,
): string | null | undefined {
  if (!isContainer(v) || hasToJson(v)) return JSON.stringify(v) ?? (inArray ? "null" : undefined);
  const known = texts && depth > 0 ? texts.get(v) : undefined;
  if (known !== undefined) return known;
  if (depth < 1 || entries(v) > SPLIT_ENTRIES) return null;
  const text = JSON.stringify(v);
  // A large one's is not kept: it is walked (its text only said how large it is), and its own
  // entries' texts are kept as they are written.
  if (text.length > LARGE_CHARS) return depth < MAX_WALK_DEPTH ? null : text;
  texts?.set(v, text);
  return text;
}

// JSON.stringify's (and canonicalJson's) text, made a piece at a time with the event loop given
// back between pieces: a lived-in pod's /state view is ~1.3 MB of JSON, 15-50 ms in one
// JSON.stringify; a signed record of thousands of events, 20-25 ms in one canonicalJson. Containers
// are written entry by entry where the checkpoint codec would give them lines of their own (the
// root's children, any with many entries or a long text), everything else by JSON.stringify.
import { canonicalJson } from "../domain/canonical-json";
import { TimeSlices } from "./time-slices";
import {
  CODEC_SLICE_MS,
  entries,
  entryText,
  hasToJson,
  isContainer,
  jsonValue,
  LARGE_CHARS,
  SPLIT_ENTRIES,
  type Container,
} from "./json-walk";

/** Entries of an array written by one JSON.stringify. */
const RUN = 32;

/**
 * The text of each of a root's entries, by object, kept when long (at least KEPT_CHARS): only
 * for values whose objects never change once made, as a pod's states (ARCHITECTURE.md). A
 * snapshot of a lived-in pod then writes its untouched 3,000-task plan without making its text.
 * (Entries' texts kept one by one, as checkpoints keep them, cost ~7 ms a lived-in snapshot for
 * about the same memory, and as much again for every small pod.)
 */
export type RootTexts = WeakMap<object, string>;
const KEPT_CHARS = 8 * 1024;

/** The same text as JSON.stringify(value), with the event loop given back every `sliceMs`. */
export const stringifyInSlices = (value: unknown, sliceMs = CODEC_SLICE_MS) => stringify(value, sliceMs);

/**
 * The same, taking the text of a root's entry from `kept` when it was written before for the same
 * object (a shared record's text does not depend on its key), and keeping those of `minChars` or more.
 */
export const stringifyKeepingTexts = (value: unknown, kept: RootTexts, minChars = KEPT_CHARS) =>
  stringify(value, CODEC_SLICE_MS, { kept, minChars });

async function stringify(
  value: unknown,
  sliceMs: number,
  root?: { kept: RootTexts; minChars: number },
): Promise<string> {
  if (!isContainer(value) || hasToJson(value)) return JSON.stringify(value);
  const parts: string[] = [];
  const slices = new TimeSlices(sliceMs);
  const walk = async (v: Container, depth: number): Promise<void> => {
    const array = Array.isArray(v);
    parts.push(array ? "[" : "{");
    let first = true;
    const keys: (string | number)[] = array ? Array.from({ length: v.length }, (_, i) => i) : Object.keys(v);
    for (let at = 0; at < keys.length; at++) {
      // A run of an array's entries in one JSON.stringify (one call per entry costs twice as much), unless one is large.
      if (array && depth >= 1 && at + RUN <= keys.length) {
        const run = JSON.stringify(v.slice(at, at + RUN));
        if (run.length <= LARGE_CHARS) {
          parts.push((first ? "" : ",") + run.slice(1, -1));
          [first, at] = [false, at + RUN - 1];
          await slices.pause();
          continue;
        }
      }
      const key = keys[at]!;
      const raw = (v as Record<string | number, unknown>)[key];
      const prefix = (first ? "" : ",") + (array ? "" : `${JSON.stringify(key)}:`);
      const known = depth === 0 && root && isContainer(raw) ? root.kept.get(raw) : undefined;
      const x = known === undefined ? jsonValue(raw, key) : undefined;
      // As JSON.stringify does: an object drops what has no JSON (undefined, functions), an array writes null.
      const text = known ?? entryText(x, depth, array);
      if (text === undefined) continue;
      first = false;
      if (text !== null) parts.push(prefix + text);
      else {
        parts.push(prefix);
        const from = parts.length;
        await walk(x as Container, depth + 1);
        if (depth === 0 && root) keep(parts, from, raw as object, root);
      }
      await slices.pause();
    }
    parts.push(array ? "]" : "}");
  };
  await walk(value, 0);
  return parts.join("");
}

/** A root entry's text, just written as parts[from…], joined into one part and kept when long. */
function keep(parts: string[], from: number, raw: object, root: { kept: RootTexts; minChars: number }) {
  const text = parts.splice(from).join("");
  parts.push(text);
  if (text.length >= root.minChars) root.kept.set(raw, text);
}

/** The same text as canonicalJson(value) (keys sorted, undefined members dropped), with the event loop given back every `sliceMs`. */
export async function canonicalJsonInSlices(value: unknown, sliceMs = CODEC_SLICE_MS): Promise<string> {
  const slices = new TimeSlices(sliceMs);
  const walk = async (v: unknown, depth: number): Promise<string> => {
    if (!isContainer(v) || (depth >= 1 && entries(v) <= SPLIT_ENTRIES)) return canonicalJson(v);
    const parts: string[] = [];
    if (Array.isArray(v)) {
      for (const x of v) {
        parts.push(await walk(x === undefined ? null : x, depth + 1));
        await slices.pause();
      }
      return `[${parts.join(",")}]`;
    }
    const record = v as Record<string, unknown>;
    for (const k of Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()) {
      parts.push(`${JSON.stringify(k)}:${await walk(record[k], depth + 1)}`);
      await slices.pause();
    }
    return `{${parts.join(",")}}`;
  };
  return walk(value, 0);
}

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
  type EntryTexts,
} from "./json-walk";

/** Entries of an array written by one JSON.stringify. */
const RUN = 32;

/** The same text as JSON.stringify(value), with the event loop given back every `sliceMs`. */
export const stringifyInSlices = (value: unknown, sliceMs = CODEC_SLICE_MS) => stringify(value, sliceMs);

/**
 * The same, taking an entry's text from `texts` when it was written before for the same object,
 * and keeping those it makes.
 */
export const stringifyKeepingTexts = (value: unknown, texts: EntryTexts) =>
  stringify(value, CODEC_SLICE_MS, texts);

async function stringify(value: unknown, sliceMs: number, texts?: EntryTexts): Promise<string> {
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
      const x = jsonValue((v as Record<string | number, unknown>)[key], key);
      // As JSON.stringify does: an object drops what has no JSON (undefined, functions), an array writes null.
      const text = entryText(x, depth, array, texts);
      if (text === undefined) continue;
      const prefix = (first ? "" : ",") + (array ? "" : `${JSON.stringify(key)}:`);
      first = false;
      if (text === null) {
        parts.push(prefix);
        await walk(x as Container, depth + 1);
      } else parts.push(prefix + text);
      await slices.pause();
    }
    parts.push(array ? "]" : "}");
  };
  await walk(value, 0);
  return parts.join("");
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

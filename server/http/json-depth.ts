// How deep a JSON text nests, judged on its raw bytes before JSON.parse: a body
// of 8 MiB of "[" parses into millions of nested arrays that everything after
// (validation, serialisation, React) would have to walk, often recursively.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * True when the text opens more than `max` objects/arrays inside one another (outside strings).
 * Linear and allocation-free; UTF-8 continuation bytes are >= 0x80, so they never look like these.
 */
export function jsonNestingExceeds(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return false;
}

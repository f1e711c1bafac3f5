// The string values a JSON text gives one key of its outermost object, read leniently from the
// raw bytes: the text may be cut short, nest too deep, or hold what JSON.parse or our bounds
// refuse (NUL, a lone surrogate). A door uses it to learn what kind of call a body it cannot
// read is (a gated call must still be answered). Only keys of the outermost object count: the
// same key deeper down (inside a tool's input) is the input's, never the call's.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPENS = new Set([0x5b, 0x7b]);
const CLOSES = new Set([0x5d, 0x7d]);
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** A key or value longer than this is not an event name: it is skipped, not decoded. */
const MAX_LITERAL = 512;

/** The end (exclusive, past the closing quote) of the string literal opening at `i`, or -1 when the text ends first. */
function stringEnd(bytes: Uint8Array, i: number): number {
  for (let k = i + 1; k < bytes.length; k++) {
    if (bytes[k] === BACKSLASH) k++;
    else if (bytes[k] === QUOTE) return k + 1;
  }
  return -1;
}

/** A string literal's value (escapes decoded), or null when it does not decode or is too long to be a name. */
function literal(bytes: Uint8Array, from: number, to: number): string | null {
  if (to - from > MAX_LITERAL) return null;
  try {
    const v: unknown = JSON.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("utf8"),
    );
    return typeof v === "string" ? v : null;
  } catch {
    return null;
  }
}

const skipSpace = (bytes: Uint8Array, i: number) => {
  while (i < bytes.length && SPACE.has(bytes[i]!)) i++;
  return i;
};

/** Every string value `key` has in the outermost object of `bytes` (JSON.parse would keep the last; a door weighs them all). */
export function topLevelStrings(bytes: Uint8Array, key: string): string[] {
  const found: string[] = [];
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      const end = stringEnd(bytes, i);
      if (end < 0) break;
      const colon = depth === 1 ? skipSpace(bytes, end) : -1;
      if (colon >= 0 && bytes[colon] === COLON && literal(bytes, i, end) === key) {
        const v = skipSpace(bytes, colon + 1);
        const vEnd = bytes[v] === QUOTE ? stringEnd(bytes, v) : -1;
        const value = vEnd < 0 ? null : literal(bytes, v, vEnd);
        if (value !== null) found.push(value);
        i = vEnd > 0 ? vEnd - 1 : colon; // past the value, or on to what follows the colon
        continue;
      }
      i = end - 1;
    } else if (OPENS.has(b)) depth++;
    else if (CLOSES.has(b)) depth--;
  }
  return found;
}

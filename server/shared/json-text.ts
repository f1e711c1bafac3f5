// Judges a JSON text on its raw bytes, in one linear pass before JSON.parse:
// - how deep it nests: 8 MiB of "[" parses into millions of nested arrays that
//   everything after (validation, serialisation, React) would have to walk, often recursively;
// - whether a string holds NUL (written "\u0000"): PostgreSQL cannot store it in text,
//   so it would fail deep inside a write with a 500;
// - whether a string holds a lone UTF-16 surrogate (written "\ud800" with no partner): it is
//   no character, UTF-8 cannot carry it, and PostgreSQL's jsonb refuses it, so a stored event
//   holding one would make every filtered search of its pod fail, forever.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const U = 0x75;

export type JsonTextProblem = "too_deep" | "too_many_containers" | "nul" | "lone_surrogate" | null;

const hexDigit = (b: number | undefined) =>
  b === undefined
    ? -1
    : b >= 0x30 && b <= 0x39
      ? b - 0x30
      : b >= 0x61 && b <= 0x66
        ? b - 0x57
        : b >= 0x41 && b <= 0x46
          ? b - 0x37
          : -1;

/** The code unit of the escape "\uXXXX" starting at `i` (the backslash), or -1. */
function escapedUnit(bytes: Uint8Array, i: number): number {
  if (bytes[i] !== BACKSLASH || bytes[i + 1] !== U) return -1;
  let unit = 0;
  for (let k = 2; k < 6; k++) {
    const d = hexDigit(bytes[i + k]);
    if (d < 0) return -1;
    unit = unit * 16 + d;
  }
  return unit;
}
const isHigh = (u: number) => u >= 0xd800 && u <= 0xdbff;
const isLow = (u: number) => u >= 0xdc00 && u <= 0xdfff;

/**
 * "too_deep" when the text opens more than `maxDepth` objects/arrays inside one another (outside
 * strings), "nul" when a string contains the escape \u0000, "lone_surrogate" for an escaped
 * surrogate without its partner, "too_many_containers" past `maxContainers` objects and arrays in
 * all, else null. Allocation-free; UTF-8 continuation bytes are >= 0x80, so they never look like
 * any of these.
 */
export function jsonTextProblem(
  bytes: Uint8Array,
  maxDepth: number,
  maxContainers = Infinity,
): JsonTextProblem {
  let depth = 0;
  let containers = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) {
        const unit = escapedUnit(bytes, i);
        if (unit === 0) return "nul";
        if (isLow(unit)) return "lone_surrogate";
        if (isHigh(unit)) {
          if (!isLow(escapedUnit(bytes, i + 6))) return "lone_surrogate";
          i += 6; // the pair's low half, judged with it
        }
        i += unit >= 0 ? 5 : 1; // the escape, whatever it is, cannot end the string
      } else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > maxDepth) return "too_deep";
      if (++containers > maxContainers) return "too_many_containers";
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return null;
}

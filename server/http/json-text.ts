// Judges a JSON text on its raw bytes, in one linear pass before JSON.parse:
// - how deep it nests: 8 MiB of "[" parses into millions of nested arrays that
//   everything after (validation, serialisation, React) would have to walk, often recursively;
// - whether a string holds NUL (written "\u0000"): PostgreSQL cannot store it in text,
//   so it would fail deep inside a write with a 500.
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const U = 0x75;
const ZERO = 0x30;

export type JsonTextProblem = "too_deep" | "nul" | null;

/**
 * "too_deep" when the text opens more than `maxDepth` objects/arrays inside one another (outside
 * strings), "nul" when a string contains the escape \u0000, else null. Allocation-free; UTF-8
 * continuation bytes are >= 0x80, so they never look like any of these.
 */
export function jsonTextProblem(bytes: Uint8Array, maxDepth: number): JsonTextProblem {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) {
        if (bytes[i + 1] === U && bytes[i + 2] === ZERO && bytes[i + 3] === ZERO && bytes[i + 4] === ZERO && bytes[i + 5] === ZERO) return "nul";
        i++; // the escaped character, whatever it is, cannot end the string
      } else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) inString = true;
    else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > maxDepth) return "too_deep";
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) depth--;
  }
  return null;
}

// What one event body may contain. The tape is append-only: a body that a
// reader cannot serialise or replay (a note nested 5,000 levels deep overflows
// JSON.stringify's stack) would make its pod unreadable forever, so the shape
// is bounded at the door, where it can still be refused.
//
// The limits are far beyond what an agent writes: the deepest of the protocol's file formats
// (a proof's gates, a TaskStep's tool-call args) nests under 10 levels, and the
// largest body, an evidence bundle, takes ~130 bytes and 4 entries per artifact
// (so ~8,000 artifacts fit). Every reader then works on at most 1 MiB and
// 64 levels: readable, searchable, replayable and renderable in bounded time and stack.
export const EVENT_BOUNDS = {
  /** Objects and arrays nested inside the body (the body itself is level 1). */
  maxDepth: 64,
  /** The body as JSON, in UTF-8 bytes. */
  maxBytes: 1024 * 1024,
  /** Object keys plus array items, counted over the whole body. */
  maxEntries: 100_000,
} as const;

export type EventBoundsLimit = "depth" | "size" | "entries";
export type BoundsViolation = { limit: EventBoundsLimit; path: (string | number)[]; message: string };

/** `parent` and `key` say where the value is: its path is built only for a violation's message. */
type Frame = { value: object; depth: number; parent: Frame | null; key: string | number };

const pathOf = (frame: Frame) => {
  const path: (string | number)[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) path.unshift(f.key);
  return path;
};

/**
 * The first bound `body` breaks, or null. Iterative, so any depth is judged without recursion;
 * it allocates a frame per nested container only (this runs on every event appended).
 */
export function findBoundsViolation(
  body: unknown,
  bounds: typeof EVENT_BOUNDS = EVENT_BOUNDS,
): BoundsViolation | null {
  const stack: Frame[] = isContainer(body) ? [{ value: body, depth: 1, parent: null, key: "" }] : [];
  let entries = 0;
  while (stack.length) {
    const frame = stack.pop()!;
    const { value, depth } = frame;
    if (depth > bounds.maxDepth) {
      return {
        limit: "depth",
        path: pathOf(frame),
        message: `nests deeper than ${bounds.maxDepth} levels (the limit for an event body)`,
      };
    }
    const array = Array.isArray(value);
    const keys = array ? null : Object.keys(value);
    entries += keys ? keys.length : (value as unknown[]).length;
    // Checked before descending: a cyclic or huge value stops here, never exhausts memory.
    if (entries > bounds.maxEntries) {
      return {
        limit: "entries",
        path: [],
        message: `has more than ${bounds.maxEntries} entries (object keys and array items; the limit for an event body)`,
      };
    }
    if (keys) {
      for (const key of keys) {
        const child = (value as Record<string, unknown>)[key];
        if (isContainer(child)) stack.push({ value: child, depth: depth + 1, parent: frame, key });
      }
    } else {
      const items = value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const child = items[i];
        if (isContainer(child)) stack.push({ value: child, depth: depth + 1, parent: frame, key: i });
      }
    }
  }
  // Safe now: the depth is bounded, so stringifying cannot overflow the stack.
  const json = JSON.stringify(body) ?? "";
  // A UTF-16 code unit is at most 3 bytes of UTF-8: a short text needs no counting.
  if (json.length * 3 <= bounds.maxBytes) return null;
  const bytes = utf8Length(json);
  if (bytes > bounds.maxBytes) {
    return {
      limit: "size",
      path: [],
      message: `is ${bytes} bytes as JSON, more than ${bounds.maxBytes} (the limit for an event body)`,
    };
  }
  return null;
}

const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;

/** UTF-8 bytes of `s`, counted without encoding it. */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4; // a surrogate pair is one 4-byte character
      i++;
    } else n += 3;
  }
  return n;
}

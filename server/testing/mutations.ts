// fast-check arbitraries that break valid requests: structural mutations of a
// JSON value (any path: the envelope and the body alike) and raw byte edits.
import fc from "fast-check";

/** Values that tend to break parsers, validators, projections and renderers. */
export const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 40 }), weight: 3 },
  {
    arbitrary: fc.constantFrom<unknown>(
      "",
      " ",
      "\u0000",
      "\u202e",
      "\n",
      "../../etc/passwd",
      "/abs",
      "a\\b",
      "__proto__",
      "constructor",
      "toString",
      "x".repeat(30_000),
      -1,
      0,
      -0,
      0.5,
      1e308,
      -1e308,
      2 ** 53 + 1,
      true,
      false,
      null,
      [],
      {},
      [null],
      { "": null },
      "2026-13-45T99:99:99Z",
      "not-a-uuid",
    ),
    weight: 4,
  },
  { arbitrary: fc.integer({ min: 50, max: 160 }).map((n) => chain(n)), weight: 1 },
);

function chain(levels: number): unknown {
  let v: unknown = "leaf";
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { k: v };
  return v;
}

type Op = { at: number; kind: "replace" | "delete" | "add" | "retype"; value: unknown; key: string };
export const jsonOps = fc.array(
  fc.record({
    at: fc.nat(),
    kind: fc.constantFrom("replace", "delete", "add", "retype"),
    value: weirdValue,
    key: fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom("__proto__", "constructor", "type", "body", "id", "extra"),
    ),
  }),
  { minLength: 1, maxLength: 3 },
) as fc.Arbitrary<Op[]>;

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number };

/** Every place in `root` that holds a value (root itself excluded). */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [];
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v !== "object" || v === null) continue;
    for (const key of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      out.push({ parent: v as Record<string, unknown>, key });
      stack.push((v as Record<string | number, unknown>)[key]);
    }
  }
  return out;
}

const retype = (v: unknown): unknown =>
  typeof v === "string"
    ? 7
    : typeof v === "number"
      ? String(v)
      : Array.isArray(v)
        ? { ...v }
        : typeof v === "object" && v
          ? Object.values(v)
          : [v];

/** A deep copy of `value` with `ops` applied (a JSON-shaped value in, one out). */
export function applyOps(value: unknown, ops: Op[]): unknown {
  const root = { v: structuredClone(value) };
  for (const op of ops) {
    const all = slots(root);
    if (!all.length) break; // the whole value was deleted
    const { parent, key } = all[op.at % all.length]!;
    const p = parent as Record<string | number, unknown>;
    if (op.kind === "replace") p[key] = op.value;
    else if (op.kind === "retype") p[key] = retype(p[key]);
    else if (op.kind === "delete") {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete p[key];
    } else {
      const target = p[key];
      if (Array.isArray(target)) target.push(op.value);
      // defineProperty: a "__proto__" key becomes an own key, as JSON.parse would make it.
      else if (typeof target === "object" && target)
        Object.defineProperty(target, op.key, {
          value: op.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else p[key] = op.value;
    }
  }
  return root.v;
}

type ByteOp = {
  kind: "flip" | "insert" | "delete" | "duplicate" | "truncate" | "structural";
  at: number;
  len: number;
  bytes: Uint8Array;
  char: string;
};
export const byteOps = fc.array(
  fc.record({
    kind: fc.constantFrom("flip", "insert", "delete", "duplicate", "truncate", "structural"),
    at: fc.nat(),
    len: fc.integer({ min: 1, max: 64 }),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    char: fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      '"',
      "\\",
      ",",
      ":",
      "\u0000",
      "\u00e9",
      "\ud83d",
      "-",
      "e",
      "9",
    ),
  }),
  { minLength: 1, maxLength: 4 },
) as fc.Arbitrary<ByteOp[]>;

/** `bytes` with raw edits applied: bit flips, insertions, deletions, duplicated or cut ranges, stray JSON syntax. */
export function applyByteOps(bytes: Buffer, ops: ByteOp[]): Buffer {
  let b = Buffer.from(bytes);
  for (const op of ops) {
    const at = b.length ? op.at % b.length : 0;
    if (op.kind === "flip") b[at] = b[at]! ^ (1 << (op.len % 8));
    else if (op.kind === "insert") b = Buffer.concat([b.subarray(0, at), op.bytes, b.subarray(at)]);
    else if (op.kind === "delete") b = Buffer.concat([b.subarray(0, at), b.subarray(at + op.len)]);
    else if (op.kind === "duplicate") b = Buffer.concat([b.subarray(0, at + op.len), b.subarray(at)]);
    else if (op.kind === "truncate") b = b.subarray(0, at);
    else b = Buffer.concat([b.subarray(0, at), Buffer.from(op.char), b.subarray(at + 1)]);
  }
  return b;
}

// A unified-style diff of two texts (what `podwatch hooks install --dry-run` shows): a line
// LCS, hunks with three lines of context. Settings files are small; past a size where the table
// would be large it shows the whole old text removed and the new one added, still correct.
const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

function ops(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS)
    return [
      ...a.map((line, i) => ({ kind: "-" as const, line, a: i, b: 0 })),
      ...b.map((line, j) => ({ kind: "+" as const, line, a: a.length, b: j })),
    ];
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const out: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) out.push({ kind: " ", line: a[i]!, a: i++, b: j++ });
    // Removals before additions, as diff(1) prints them.
    else if (i < a.length && (j === b.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!))
      out.push({ kind: "-", line: a[i]!, a: i++, b: j });
    else out.push({ kind: "+", line: b[j]!, a: i, b: j++ });
  }
  return out;
}

/** "" when the texts are equal. */
export function unifiedDiff(before: string, after: string, name: string): string {
  if (before === after) return "";
  const a = before ? before.replace(/\n$/, "").split("\n") : [];
  const b = after.replace(/\n$/, "").split("\n");
  const all = ops(a, b);
  const changed = all.map((o, k) => (o.kind !== " " ? k : -1)).filter((k) => k >= 0);
  const out = [`--- ${before ? name : "/dev/null"}`, `+++ ${name}`];
  for (let h = 0; h < changed.length;) {
    const start = Math.max(0, changed[h]! - CONTEXT);
    let end = changed[h]!;
    while (h < changed.length && changed[h]! <= end + 2 * CONTEXT) end = changed[h++]!;
    const slice = all.slice(start, Math.min(all.length, end + CONTEXT + 1));
    const aLen = slice.filter((o) => o.kind !== "+").length;
    const bLen = slice.filter((o) => o.kind !== "-").length;
    out.push(
      `@@ -${aLen ? slice[0]!.a + 1 : slice[0]!.a},${aLen} +${bLen ? slice[0]!.b + 1 : slice[0]!.b},${bLen} @@`,
    );
    for (const o of slice) out.push(`${o.kind}${o.line}`);
  }
  return `${out.join("\n")}\n`;
}

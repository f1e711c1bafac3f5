// The rows of the virtualized tape, newest first, over a tape of any length of which only some
// pages are loaded: loaded runs of events become rows (agent turns folded into one row, its calls
// below it when expanded), and every unloaded seq stays one placeholder row, so scrolling into it
// loads its page. Pure; segments keep it proportional to what is loaded, not to the tape's length.
import type { TapeEvent } from "@/server/wire/events";
import { groupTurns, type ToolCallView, type Turn } from "./group-turns";

export type TapeListRow =
  | { kind: "event"; key: string; seq: number; event: TapeEvent | undefined }
  | { kind: "turn"; key: string; seq: number; turn: Turn; expanded: boolean }
  | { kind: "call"; key: string; seq: number; call: ToolCallView }
  | { kind: "inner"; key: string; seq: number; event: TapeEvent };

export type TapeRowModel = {
  count: number;
  at: (i: number) => TapeListRow | undefined;
  /** The row showing `seq` (a folded turn's row for any of its events); -1 for none. */
  indexOf: (seq: number) => number;
  /** The seqs a row stands for (a turn: from its first event to its last). */
  span: (row: TapeListRow) => [number, number];
};

type Segment = { offset: number } & ({ gap: [number, number] } | { rows: TapeListRow[] });

/** What a turn's row is selected as: its prompt, else its first event. */
const turnSeq = (t: Turn) => (t.prompt ?? t.events[0]!).seq;

export function buildTapeRows({
  head,
  loaded,
  grouped,
  expanded,
}: {
  head: number;
  loaded: Iterable<TapeEvent>;
  grouped: boolean;
  expanded: ReadonlySet<string>;
}): TapeRowModel {
  const events = [...loaded].filter((e) => e.seq >= 1 && e.seq <= head).sort((a, b) => a.seq - b.seq);
  const runs: TapeEvent[][] = [];
  for (const e of events) {
    const run = runs.at(-1);
    if (run && run.at(-1)!.seq + 1 === e.seq) run.push(e);
    else if (!run || run.at(-1)!.seq !== e.seq) runs.push([e]);
  }
  const segments: Segment[] = [];
  const bySeq = new Map<number, number>();
  let offset = 0;
  const push = (s: Segment, size: number) => {
    segments.push(s);
    offset += size;
  };
  let cursor = head;
  for (const run of runs.reverse()) {
    const top = run.at(-1)!.seq;
    if (top < cursor) push({ offset, gap: [top + 1, cursor] }, cursor - top);
    const rows = rowsOf(run, grouped, expanded, head);
    // A turn's row shows all its events; the rows of its calls, when expanded, then take theirs back.
    rows.forEach((row, k) => {
      const seqs =
        row.kind === "turn"
          ? row.turn.events.map((e) => e.seq)
          : row.kind === "call"
            ? [row.call.pre?.seq, row.call.post?.seq]
            : [row.seq];
      for (const seq of seqs) if (seq !== undefined) bySeq.set(seq, offset + k);
    });
    push({ offset, rows }, rows.length);
    cursor = run[0]!.seq - 1;
  }
  if (cursor >= 1) push({ offset, gap: [1, cursor] }, cursor);
  const count = offset;

  const segmentAt = (i: number) => {
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segments[mid]!.offset <= i) lo = mid;
      else hi = mid - 1;
    }
    return segments[lo];
  };
  return {
    count,
    at(i) {
      if (i < 0 || i >= count) return undefined;
      const s = segmentAt(i)!;
      if ("rows" in s) return s.rows[i - s.offset];
      const seq = s.gap[1] - (i - s.offset);
      return { kind: "event", key: `e${seq}`, seq, event: undefined };
    },
    indexOf(seq) {
      const known = bySeq.get(seq);
      if (known !== undefined) return known;
      const s = segments.find((g) => "gap" in g && g.gap[0] <= seq && seq <= g.gap[1]);
      return s && "gap" in s ? s.offset + (s.gap[1] - seq) : -1;
    },
    span: (row) =>
      row.kind === "turn" ? [row.turn.events[0]!.seq, row.turn.events.at(-1)!.seq] : [row.seq, row.seq],
  };
}

/** One loaded run's rows, newest first; an expanded turn lists its calls and events oldest first below it. */
function rowsOf(
  run: TapeEvent[],
  grouped: boolean,
  expanded: ReadonlySet<string>,
  head: number,
): TapeListRow[] {
  if (!grouped)
    return run.map((e): TapeListRow => ({ kind: "event", key: `e${e.seq}`, seq: e.seq, event: e })).reverse();
  const rows: TapeListRow[] = [];
  for (const item of groupTurns(run, head).reverse()) {
    if (item.kind === "event") {
      rows.push({ kind: "event", key: `e${item.event.seq}`, seq: item.event.seq, event: item.event });
      continue;
    }
    const t = item.turn;
    const open = expanded.has(t.key);
    rows.push({ kind: "turn", key: `t${t.key}`, seq: turnSeq(t), turn: t, expanded: open });
    if (open)
      for (const m of t.members)
        rows.push(
          m.kind === "call"
            ? { kind: "call", key: `c${t.key}:${m.call.toolUseId}`, seq: m.seq, call: m.call }
            : { kind: "inner", key: `i${m.seq}`, seq: m.seq, event: m.event },
        );
  }
  return rows;
}

// Applies a pod's change notice (PodStateDelta, made by server/pods/pod-state-delta.ts) to the
// view the page holds, so a live event costs the browser what it changed. Pure: a new view, the
// unchanged parts shared with the old one.
import type { DeltaList, PodStateDelta, PodStateView } from "@/server/wire/views";

/** The field that keys each list's items (the key of the state's record they come from). */
const KEYS: Record<DeltaList, string> = {
  board: "taskId",
  inbox: "id",
  escalations: "escalationId",
  evidence: "bundleId",
  runs: "runId",
  jobs: "jobId",
  workcells: "workcellId",
  sessions: "sessionId",
  members: "memberId",
};

type Item = Record<string, unknown>;

function merge(items: Item[], key: string, put: Item[], drop: string[]): Item[] {
  const at = new Map(items.map((item, i) => [item[key] as string, i]));
  const out = items.slice();
  const added: Item[] = [];
  for (const item of put) {
    const i = at.get(item[key] as string);
    if (i === undefined) added.push(item);
    else out[i] = item;
  }
  const gone = new Set(drop);
  return out.concat(added).filter((item) => !gone.has(item[key] as string));
}

/**
 * Where the view stands against a notice: it applies, it is already in the view, or the view must
 * be read again. A notice is the difference between two states, so it applies only to the view at
 * its `fromSeq`: a view read inside a frame of several events may hold an item that came and went
 * within it (an inbox card opened and answered), which the difference cannot name.
 */
export function deltaFits(
  view: Pick<PodStateView, "seq">,
  delta: Pick<PodStateDelta, "fromSeq" | "seq">,
): "apply" | "stale" | "gap" {
  if (view.seq >= delta.seq) return "stale";
  return view.seq === delta.fromSeq ? "apply" : "gap";
}

/** The view at `delta.seq`, from a view at a seq from `delta.fromSeq` to `delta.seq`. */
export function applyStateDelta(view: PodStateView, delta: PodStateDelta): PodStateView {
  const next = { ...view, ...delta.set, seq: delta.seq } as PodStateView;
  const lists = next as unknown as Record<DeltaList, Item[]>;
  for (const [name, change] of Object.entries(delta.lists) as [
    DeltaList,
    { put: Item[]; drop: string[] },
  ][]) {
    lists[name] = merge(lists[name], KEYS[name], change.put, change.drop);
  }
  for (const [name, t] of Object.entries(delta.tails) as [
    keyof PodStateDelta["tails"],
    { from: number; items: unknown[] },
  ][]) {
    (next as unknown as Record<string, unknown[]>)[name] = (view[name] as unknown[])
      .slice(0, t.from)
      .concat(t.items);
  }
  if (delta.order) {
    const byId = new Map(next.board.map((task) => [task.taskId, task]));
    next.board = delta.order.map((id) => byId.get(id)).filter((task) => task !== undefined);
  }
  if (delta.lists.inbox) next.inbox = [...next.inbox].sort((a, b) => a.seq - b.seq);
  if (delta.lists.sessions) next.sessions = [...next.sessions].sort((a, b) => b.last.seq - a.last.seq);
  return next;
}

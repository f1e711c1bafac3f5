// What the board shows, as pure functions over the pod's state: which lane each task is in, which
// tasks a search and the filters keep, and how they are grouped. The board holds every task of the
// plan in the state it already has, so all of this runs in the browser, in one pass per change.
import type { PodStateView } from "@/server/wire/views";

export type BoardTask = PodStateView["board"][number];

/**
 * Lanes by what a person does about a task. Blocked tasks and those waiting for a decision are
 * pinned: shown whole, above the groups, whatever the grouping, never cut to a page.
 */
export const LANES = [
  { key: "blocked", title: "Blocked", pinned: true },
  { key: "decision", title: "Waiting for a decision", pinned: true },
  { key: "todo", title: "To do" },
  { key: "progress", title: "In progress" },
  { key: "review", title: "In review" },
  { key: "done", title: "Done", finished: true },
  { key: "closed", title: "Closed", finished: true },
] as const;
export type LaneKey = (typeof LANES)[number]["key"];
export const isLane = (key: string): key is LaneKey => LANES.some((l) => l.key === key);

/** Task ids an open question (an escalation no one answered yet) is about: someone must decide. */
export function openQuestions(state: Pick<PodStateView, "escalations">): Set<string> {
  return new Set(state.escalations.filter((e) => e.answer === null && e.taskId).map((e) => e.taskId!));
}

export function laneOf(task: BoardTask, questions: Set<string>): LaneKey {
  switch (task.status) {
    case "blocked":
      return "blocked";
    case "done":
      return "done";
    case "rejected":
    case "cancelled":
      return "closed";
    case "in_review":
      // Approved by its reviewer: the chair or an approver decides next.
      return task.review?.verdict === "approve" || questions.has(task.taskId) ? "decision" : "review";
    default:
      if (questions.has(task.taskId)) return "decision";
      return task.status === "pending" ? "todo" : "progress";
  }
}

/** `assignee`: "" anyone, UNASSIGNED nobody, else a member id (implementer or reviewer). */
export type BoardFilter = { q: string; lane: LaneKey | ""; assignee: string };
export const UNASSIGNED = "-";

/** Every word of the search is in the task's id, description, implementer or reviewer (or their names). */
export function matcher(
  filter: BoardFilter,
  names: Map<string, string>,
): (t: BoardTask, lane: LaneKey) => boolean {
  const words = filter.q.toLowerCase().split(/\s+/).filter(Boolean);
  const who = (id: string | null) => (id ? `${id} ${names.get(id) ?? ""}` : "");
  return (t, lane) => {
    if (filter.lane && lane !== filter.lane) return false;
    if (
      filter.assignee === UNASSIGNED
        ? t.implementer || t.reviewer
        : filter.assignee && t.implementer !== filter.assignee && t.reviewer !== filter.assignee
    )
      return false;
    if (!words.length) return true;
    const text = `${t.taskId} ${t.description} ${who(t.implementer)} ${who(t.reviewer)}`.toLowerCase();
    return words.every((w) => text.includes(w));
  };
}

/** Everyone who implements or reviews a task of the plan, in a stable order. */
export function assigneesOf(tasks: BoardTask[]): string[] {
  const ids = new Set<string>();
  for (const t of tasks) {
    if (t.implementer) ids.add(t.implementer);
    if (t.reviewer) ids.add(t.reviewer);
  }
  return [...ids].sort();
}

/** A metadata field is a grouping when it names a few groups (a milestone, an area), not one per task. */
const MAX_GROUPS = 40;
const MAX_LABEL = 60;
/**
 * The plan's metadata fields that group its tasks: text or number values, short, at most 40
 * distinct, on at least a tenth of the tasks, and not one value for all of them.
 */
export function groupingFields(tasks: BoardTask[]): string[] {
  const values = new Map<string, Set<string> | null>();
  const seen = new Map<string, number>();
  for (const t of tasks)
    for (const [key, value] of Object.entries(t.metadata)) {
      const set = values.get(key);
      if (set === null) continue;
      const label = typeof value === "string" || typeof value === "number" ? String(value) : null;
      if (label === null || label.length > MAX_LABEL || (set && set.size >= MAX_GROUPS && !set.has(label))) {
        values.set(key, null);
        continue;
      }
      values.set(key, (set ?? new Set()).add(label));
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
  return [...values]
    .filter(([key, set]) => set && set.size > 1 && (seen.get(key) ?? 0) * 10 >= tasks.length)
    .map(([key]) => key)
    .sort();
}

export type Grouping = { by: "state" } | { by: "assignee" } | { by: "field"; field: string };
export type BoardGroup = {
  key: string;
  title: string;
  tasks: BoardTask[];
  /** Shown whole (blocked, waiting for a decision), and laid out across the board's width. */
  pinned: boolean;
  /** Finished work: the newest first. */
  finished: boolean;
};

/**
 * The pinned lanes first (when they hold a task), then the groups of the rest. By state every lane
 * is shown, empty or not, so the columns stay where a person expects them; other groupings show the
 * groups that hold a task, in name order, the group without a value last.
 */
export function groupTasks(
  tasks: { task: BoardTask; lane: LaneKey }[],
  grouping: Grouping,
  names: Map<string, string>,
): BoardGroup[] {
  const byLane = new Map<LaneKey, BoardTask[]>(LANES.map((l) => [l.key, []]));
  for (const { task, lane } of tasks) byLane.get(lane)!.push(task);
  const lanes = LANES.map((l) => ({
    key: l.key,
    title: l.title,
    tasks: "finished" in l ? byLane.get(l.key)!.reverse() : byLane.get(l.key)!,
    pinned: "pinned" in l,
    finished: "finished" in l,
  }));
  const pinned = lanes.filter((l) => l.pinned && l.tasks.length > 0);
  if (grouping.by === "state") return [...pinned, ...lanes.filter((l) => !l.pinned)];
  const none = grouping.by === "assignee" ? "Unassigned" : `No ${grouping.field}`;
  const groups = new Map<string, BoardTask[]>();
  for (const { task, lane } of tasks) {
    if (lane === "blocked" || lane === "decision") continue;
    const value = grouping.by === "assignee" ? task.implementer : task.metadata[grouping.field];
    const key = typeof value === "string" || typeof value === "number" ? String(value) : "";
    const group = groups.get(key);
    if (group) group.push(task);
    else groups.set(key, [task]);
  }
  const keys = [...groups.keys()].sort((a, b) =>
    !a ? 1 : !b ? -1 : a.localeCompare(b, undefined, { numeric: true }),
  );
  const title = (key: string) =>
    !key
      ? none
      : grouping.by === "assignee" && names.get(key) && names.get(key) !== key
        ? `${names.get(key)} (${key})`
        : key;
  return [
    ...pinned,
    ...keys.map((key) => ({
      key: `g:${key}`,
      title: title(key),
      tasks: groups.get(key)!,
      pinned: false,
      finished: false,
    })),
  ];
}

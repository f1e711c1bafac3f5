// What the inbox page shows of the whole inbox (pure): the items that pass the person's filters and
// search, in groups by pod, agent or kind, each group's count over every match (not the page), and a
// page of each group. Order: an item with a deadline first (soonest first), then the one that has
// waited longest, so what must be answered first is on top.
import type { InboxEntry } from "@/server/wire/views";

export const GROUPINGS = ["pod", "agent", "kind"] as const;
export type Grouping = (typeof GROUPINGS)[number];
export type InboxFilters = {
  by: Grouping;
  pod?: string;
  agent?: string;
  kind?: string;
  q?: string;
  muted: boolean;
};
export type Option = { value: string; label: string; count: number };
export type InboxGroup = { key: string; label: string; count: number; items: InboxEntry[] };
export type InboxView = {
  groups: InboxGroup[];
  /** Items that pass the filters (muted ones only when shown). */
  matched: number;
  /** Items of the default view (muted ones left out unless shown), before filters and search. */
  total: number;
  muted: number;
  options: { pod: Option[]; agent: Option[]; kind: Option[] };
};

/** A group shows its first PAGE items; each "Show more" adds MORE. */
export const PAGE = 10;
export const MORE = 25;
export const NO_AGENT = "-";
export const MAX_QUERY = 200;

export const KIND_LABELS: Record<InboxEntry["kind"], string> = {
  escalation: "Escalations",
  tool_approval: "Held tool calls",
  decision: "Decisions",
  job_acceptance: "Deliveries to accept",
  plan_blocked: "Blocked plans",
  budget: "Budgets crossed",
  idle: "Idle agents to resume",
  stale: "Stale agents",
  notice: "Notices",
};
const KIND_ORDER = Object.keys(KIND_LABELS);

/** The agent an item is about or comes from, when it has one. */
export function agentOf(item: InboxEntry): string | null {
  const c = item.context;
  if (c?.kind === "escalation") return c.askedBy;
  if (c?.kind === "tool" || c?.kind === "budget") return c.agentId;
  if (item.kind === "stale") return item.subject.id;
  return null;
}

const keyOf = (by: Grouping, item: InboxEntry) =>
  by === "pod" ? item.podId : by === "kind" ? item.kind : (agentOf(item) ?? NO_AGENT);

const labelOf = (by: Grouping, item: InboxEntry) =>
  by === "pod" ? item.podName : by === "kind" ? KIND_LABELS[item.kind] : (agentOf(item) ?? "No agent");

/** Everything a person might search an item by: its words, its pod, its agent, what backs it. */
function haystack(item: InboxEntry): string {
  const c = item.context;
  const words = [
    item.title,
    item.text,
    item.podName,
    KIND_LABELS[item.kind],
    agentOf(item),
    ...(item.options ?? []),
  ];
  if (c?.kind === "escalation") words.push(c.question, c.task?.description, ...c.options);
  if (c?.kind === "task") words.push(c.taskId, c.description);
  if (c?.kind === "job") words.push(c.jobId, c.scope);
  if (c?.kind === "tool") words.push(c.tool, c.agentKind, c.cwd ?? undefined);
  if (c?.kind === "plan") words.push(c.planId, ...c.blocks.map((b) => b.rationale));
  return words.filter(Boolean).join("\n").toLowerCase();
}

/** Due-soonest first, then oldest first (ISO times compare as strings), then the tape's order. */
export function answerOrder(a: InboxEntry, b: InboxEntry): number {
  if (a.due && b.due) return a.due.at.localeCompare(b.due.at) || a.at.localeCompare(b.at);
  if (a.due || b.due) return a.due ? -1 : 1;
  return a.at.localeCompare(b.at) || a.seq - b.seq;
}

function optionsOf(items: InboxEntry[], by: Grouping): Option[] {
  const counts = new Map<string, Option>();
  for (const item of items) {
    const value = keyOf(by, item);
    const o = counts.get(value) ?? { value, label: labelOf(by, item), count: 0 };
    o.count++;
    counts.set(value, o);
  }
  return [...counts.values()].sort(byGroupOrder(by));
}

const byGroupOrder =
  (by: Grouping) =>
  (
    a: { value?: string; key?: string; label: string },
    b: { value?: string; key?: string; label: string },
  ) => {
    const ka = a.value ?? a.key ?? "";
    const kb = b.value ?? b.key ?? "";
    if (by === "kind") return KIND_ORDER.indexOf(ka) - KIND_ORDER.indexOf(kb);
    if (by === "agent" && (ka === NO_AGENT || kb === NO_AGENT)) return ka === NO_AGENT ? 1 : -1;
    return a.label.localeCompare(b.label) || ka.localeCompare(kb);
  };

/** `shown`: how many of a group's items the person asked to see (PAGE when absent). */
export function shapeInbox(
  all: InboxEntry[],
  f: InboxFilters,
  shown: Record<string, number> = {},
): InboxView {
  const visible = f.muted ? all : all.filter((i) => !i.muted);
  const q = f.q?.trim().toLowerCase().slice(0, MAX_QUERY);
  const matches = visible.filter(
    (i) =>
      (!f.pod || i.podId === f.pod) &&
      (!f.kind || i.kind === f.kind) &&
      (!f.agent || (agentOf(i) ?? NO_AGENT) === f.agent) &&
      (!q || haystack(i).includes(q)),
  );
  const groups = new Map<string, InboxGroup>();
  for (const item of matches) {
    const key = keyOf(f.by, item);
    const g = groups.get(key) ?? { key, label: labelOf(f.by, item), count: 0, items: [] };
    g.count++;
    g.items.push(item);
    groups.set(key, g);
  }
  const ordered = [...groups.values()].sort(byGroupOrder(f.by)).map((g) => ({
    ...g,
    items: g.items.sort(answerOrder).slice(0, Math.max(PAGE, shown[g.key] ?? PAGE)),
  }));
  return {
    groups: ordered,
    matched: matches.length,
    total: visible.length,
    muted: all.filter((i) => i.muted).length,
    options: {
      pod: optionsOf(visible, "pod"),
      agent: optionsOf(visible, "agent"),
      kind: optionsOf(visible, "kind"),
    },
  };
}

// The board's search, filters, grouping and collapsed groups live in the address (?q=, ?state=,
// ?assignee=, ?group=, ?collapsed=), so a view of the board can be linked to and survives a reload.
import { isLane, type BoardFilter, type Grouping } from "./board-model";

export type BoardQuery = BoardFilter & { grouping: Grouping; collapsed: string[] };
const KEYS = ["q", "state", "assignee", "group", "collapsed"] as const;
/** Bounds what the address may hold: a pasted link is read, never trusted. */
const MAX = 200;

export function readBoardQuery(params: URLSearchParams): BoardQuery {
  const get = (k: (typeof KEYS)[number]) => (params.get(k) ?? "").slice(0, MAX);
  const lane = get("state");
  const group = get("group");
  return {
    q: get("q"),
    lane: isLane(lane) ? lane : "",
    assignee: get("assignee"),
    grouping:
      group === "assignee"
        ? { by: "assignee" }
        : group.startsWith("field:") && group.length > 6
          ? { by: "field", field: group.slice(6) }
          : { by: "state" },
    collapsed: get("collapsed").split(",").filter(Boolean).slice(0, 50),
  };
}

/** The address's query with the board's part replaced; what else it holds (the tab, a linked task) is kept. */
export function writeBoardQuery(search: string, query: BoardQuery): string {
  const params = new URLSearchParams(search);
  for (const k of KEYS) params.delete(k);
  const group = query.grouping.by === "field" ? `field:${query.grouping.field}` : query.grouping.by;
  const set: [string, string][] = [
    ["q", query.q],
    ["state", query.lane],
    ["assignee", query.assignee],
    ["group", group === "state" ? "" : group],
    ["collapsed", query.collapsed.join(",")],
  ];
  for (const [k, v] of set) if (v) params.set(k, v);
  return params.toString();
}

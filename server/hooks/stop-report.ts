// A Stop becomes a checkpoint when the agent's last message reads like one (docs/protocol/pods-and-modes.md#checkpoints-and-cadence:
// "Completed / Next / Blocked"). Agents write it many ways — "## Completed", "**Next:**",
// "Blocked: none", numbered or bulleted lists, items on the label's own line — so this is
// tolerant; a message with fewer than two of the three sections stays a note.
import { SUMMARY_MAX } from "../domain/events/agent-events";
import { cut } from "./summarize";

export type StopReport = { completed: string[]; next: string[]; blocked: string[] };
type Section = keyof StopReport;

const SECTIONS: [RegExp, Section][] = [
  [/^(completed|done|finished|accomplished)$/i, "completed"],
  [/^(next|next steps?|up next|todo|to do|remaining)$/i, "next"],
  [/^(blocked|blockers?|blocking)$/i, "blocked"],
];
// "## Completed", "**Next:**", "__Blocked__ - x", "Completed: x" — a label, decorated, then the rest of the line.
const HEADING =
  /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(completed|done|finished|accomplished|next steps?|up next|next|todo|to do|remaining|blocked|blockers?|blocking)\b\s*(?:\*\*|__)?\s*(:)?\s*(?:\*\*|__)?\s*(?:[-–—]\s*)?(.*)$/i;
const ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+(.*)$/;
const EMPTY = /^(none|nothing|n\/a|na|-|—|–|no blockers?|nothing blocked)\.?$/i;
const MAX_ITEMS = 100;

function labelOf(line: string): { section: Section; rest: string } | null {
  const m = HEADING.exec(line);
  if (!m) return null;
  const hit = SECTIONS.find(([re]) => re.test(m[1]!.replace(/\s+/g, " ")));
  if (!hit) return null;
  const decorated = /^\s*(#|\*\*|__)/.test(line) || m[2] === ":";
  return decorated ? { section: hit[1], rest: m[3]!.trim() } : null;
}

const clean = (text: string) => cut(text.replace(/\*\*|__/g, "").trim(), SUMMARY_MAX);

/** The report in `message`, or null when it does not have the shape (fewer than two sections, or no item at all). */
export function parseStopReport(message: string): StopReport | null {
  const report: StopReport = { completed: [], next: [], blocked: [] };
  const seen = new Set<Section>();
  let current: Section | null = null;
  for (const line of message.split(/\r?\n/)) {
    const label = labelOf(line);
    if (label) {
      current = label.section;
      seen.add(current);
      if (label.rest) add(report[current], label.rest);
      continue;
    }
    if (/^\s*#/.test(line)) current = null; // another heading ends the section
    if (!current || !line.trim()) continue;
    const item = ITEM.exec(line);
    add(report[current], item ? item[1]! : line);
  }
  const items = report.completed.length + report.next.length + report.blocked.length;
  return seen.size >= 2 && items > 0 ? report : null;
}

function add(list: string[], text: string) {
  const t = clean(text);
  if (t && !EMPTY.test(t) && list.length < MAX_ITEMS) list.push(t);
}

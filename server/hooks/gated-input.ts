// A held call's input as the person deciding sees it: whole JSON up to GATED_INPUT_MAX. A longer
// one has its long texts cut (a Write's content), each marked, so the card still shows the rest;
// if that is not enough, the text itself is cut and no longer parses — either way the domain
// refuses to allow a call the person could not read whole (inputIsWhole in tool-policy.ts).
import { GATED_INPUT_MAX } from "../domain/events/agent-events";
import { INPUT_CUT_MARK } from "../wire/vocabulary";
import { cut } from "./summarize";

/** How much of one long text a cut input keeps. */
const KEEP_CHARS = 4000;

function cutTexts(value: unknown, depth: number): unknown {
  if (typeof value === "string")
    return value.length > KEEP_CHARS
      ? `${cut(value, KEEP_CHARS)}${INPUT_CUT_MARK.slice(1)} (${value.length} characters)`
      : value;
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => cutTexts(v, depth - 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, cutTexts(v, depth - 1)]),
  );
}

export function gatedInputText(input: unknown): string {
  const whole = JSON.stringify(input ?? {}, null, 2);
  if (whole.length <= GATED_INPUT_MAX) return whole;
  const shortened = JSON.stringify(cutTexts(input ?? {}, 8), null, 2);
  return shortened.length <= GATED_INPUT_MAX ? shortened : cut(shortened, GATED_INPUT_MAX);
}

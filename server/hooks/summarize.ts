// Bounded summaries of what a hook carries: only these go on the tape, never a whole tool
// response (a Read of a large file) or transcript.
import { SUMMARY_MAX } from "../domain/events/agent-events";
import { stableJson, toolSubject } from "../domain/state/tool-policy";

/** `text` cut to `max` characters (an ellipsis marks the cut), never splitting a surrogate pair. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/** A tool call's input as the tape shows it: the command, the path, the URL — else its JSON. */
export const inputSummary = (tool: string, input: unknown, cwd?: string) =>
  cut(toolSubject(tool, input ?? {}, cwd), SUMMARY_MAX);

const obj = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** A tool's response in a few words: Bash's output, a file's path and size, or the JSON cut short. */
export function outputSummary(response: unknown): string | undefined {
  if (response === undefined || response === null) return undefined;
  if (typeof response === "string") return cut(response, SUMMARY_MAX);
  const r = obj(response);
  if (r) {
    const stdout = str(r.stdout);
    const stderr = str(r.stderr);
    if (stdout !== null || stderr !== null)
      return cut(
        [stdout, stderr]
          .filter((s) => s && s.trim())
          .join("\n")
          .trim(),
        SUMMARY_MAX,
      );
    const file = obj(r.file);
    const path = str(file?.filePath) ?? str(r.filePath);
    if (path !== null) {
      const lines = typeof file?.numLines === "number" ? ` (${file.numLines} lines)` : "";
      return cut(`${path}${lines}`, SUMMARY_MAX);
    }
  }
  // The JSON of a large response is built only to be cut: stop it early instead.
  return cut(stableJson(response).slice(0, SUMMARY_MAX + 1), SUMMARY_MAX);
}

// Gemini CLI's hook entries for podwatch, as `podwatch hooks install --agent gemini` writes them
// and the control room shows them. Pure (the browser imports it). Every hook runs `podwatch hook
// --agent gemini`. Gemini lets a tool run when its hook exits 1 or cannot start, so the BeforeTool
// entry turns any such failure into exit 2 with a reason on stderr, which blocks: a missing
// `podwatch` does not open the gate. Timeouts are milliseconds, the hold's for BeforeTool.
import { BLOCK_ON_FAILURE, GATED_TIMEOUT_SECONDS, OBSERVATION_TIMEOUT_SECONDS } from "./settings-snippet";

/** The events podwatch records, as Gemini names them; BeforeTool gates. */
export const GEMINI_RECORDED_EVENTS = [
  "SessionStart",
  "BeforeAgent",
  "BeforeTool",
  "AfterTool",
  "AfterAgent",
  "Notification",
  "SessionEnd",
] as const;
const TOOL_EVENTS = new Set<string>(["BeforeTool", "AfterTool"]);

export function geminiHooks(bin = "podwatch"): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const event of GEMINI_RECORDED_EVENTS) {
    const gated = event === "BeforeTool";
    const hook = {
      name: "podwatch",
      type: "command",
      command: `${bin} hook --agent gemini${gated ? ` ${BLOCK_ON_FAILURE}` : ""}`,
      timeout: (gated ? GATED_TIMEOUT_SECONDS : OBSERVATION_TIMEOUT_SECONDS) * 1000,
    };
    out[event] = [{ ...(TOOL_EVENTS.has(event) ? { matcher: "*" } : {}), hooks: [hook] }];
  }
  return out;
}

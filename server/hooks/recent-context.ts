// What the person deciding a gated call sees of what the agent was doing: the session's latest
// prompt and its last few tool calls, from one bounded read of the tape.
import type { TapeStore } from "../db/tape-store";
import { searchEvents } from "../tape/read-events";
import { cut } from "./summarize";

const LOOK_BACK = 60;
const TOOL_LINES = 6;
const LINE_MAX = 300;

export async function recentContext(
  store: TapeStore,
  podId: string,
  memberId: string,
  sessionId: string,
): Promise<string[]> {
  const events = await searchEvents(
    store,
    podId,
    { types: ["prompt.submitted", "tool.call"], actor: memberId },
    2_147_483_647,
    LOOK_BACK,
  );
  const mine = events.filter((e) => e.meta?.sessionId === sessionId); // newest first
  const prompt = mine.find(
    (e) => e.type === "prompt.submitted" && typeof (e.body as { text?: unknown }).text === "string",
  );
  const tools = mine
    .filter((e) => e.type === "tool.call" && (e.body as { phase?: string }).phase === "started")
    .slice(0, TOOL_LINES)
    .reverse()
    .map((e) => {
      const b = e.body as { tool: string; input?: string; gate?: { decision: string } };
      return `Ran ${b.tool}${b.input ? `: ${b.input}` : ""}${b.gate?.decision === "deny" ? " (denied)" : ""}`;
    });
  const lines = [...(prompt ? [`Prompt: ${(prompt.body as { text: string }).text}`] : []), ...tools];
  return lines.map((l) => cut(l.replace(/\s+/g, " ").trim(), LINE_MAX)).filter((l) => l.length > 0);
}

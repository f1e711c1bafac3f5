// One line saying what a held tool call would do — the command, the path, the URL — for the
// places too small for its whole input (a notification's body). Pure.
import type { InboxItem, PodState } from "../domain/state/pod-state";
import { parseHeldInput, toolSubject } from "../domain/state/tool-policy";

const MAX = 160;

/** `Bash: git push origin main`, cut to a notification's length; null when the item is not a held call this pod still knows. */
export function heldCallSummary(state: PodState, item: Pick<InboxItem, "kind" | "subject">): string | null {
  if (item.kind !== "tool_approval") return null;
  const approval = Object.hasOwn(state.toolApprovals, item.subject.id) ? state.toolApprovals[item.subject.id]! : null;
  if (!approval) return null;
  const cwd = approval.sessionId ? (state.sessions[approval.sessionId]?.cwd ?? null) : null;
  const line = `${approval.tool}: ${toolSubject(approval.tool, parseHeldInput(approval.input) ?? approval.input, cwd).replace(/\s+/g, " ").trim()}`;
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}

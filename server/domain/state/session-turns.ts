// The turn a session is in: opened by a prompt or a tool call, closed by the agent's report (a
// Stop hook writes a checkpoint or a status note in the session, or says it is held for a person's
// Resume) or the session's end. Run after
// every event (apply-event.ts), like the meters, so the control room's "Now" reads whether an agent
// is working, and on what, from the state alone.
import type { AgentSession, AppliedEvent, PodState, SessionTurn } from "./pod-state";
import { withFields } from "./pod-state";
import { with_, without } from "./rules";

function nextTurn(turn: SessionTurn | undefined, e: AppliedEvent): SessionTurn | undefined {
  const since = turn?.open ? turn.since : e.receivedAt;
  switch (e.type) {
    case "prompt.submitted":
      return { open: true, since: e.receivedAt, tool: null };
    case "tool.call": {
      const b = e.body;
      // A call its gate denied never runs: the turn goes on, but no tool is under way for it.
      if (b.phase === "started" && b.gate?.decision === "deny")
        return { open: true, since, tool: turn?.open ? turn.tool : null };
      if (b.phase === "started")
        return { open: true, since, tool: { name: b.tool, toolUseId: b.toolUseId, at: e.receivedAt } };
      // A call's end clears the tool only when it is the call shown (parallel calls end in any order).
      const tool = turn?.open && turn.tool?.toolUseId !== b.toolUseId ? turn.tool : null;
      return { open: true, since, tool };
    }
    case "checkpoint":
    case "note":
    case "session.idle.held":
    case "session.ended":
      return { open: false, since: e.receivedAt, tool: null };
    case "session.started":
      return turn ?? { open: false, since: e.receivedAt, tool: null };
    default:
      return turn;
  }
}

export function trackTurn(after: PodState, e: AppliedEvent): PodState {
  const id = e.sessionId;
  if (!id || !Object.hasOwn(after.sessions, id)) return after;
  const session: AgentSession = after.sessions[id]!;
  // Only the session's own agent moves its turn (another member's note in it says nothing of it).
  if (session.agentId !== e.actor) return after;
  const turn = nextTurn(session.turn, e);
  if (turn === session.turn) return after;
  const sessions = with_(after.sessions, id, { ...session, turn });
  // At work again (a prompt at its terminal, a tool call) or ended: nobody need resume it any more.
  const idle = `idle:${id}`;
  const leaves = (turn?.open || e.type === "session.ended") && Object.hasOwn(after.inbox, idle);
  return withFields(after, leaves ? { sessions, inbox: without(after.inbox, idle) } : { sessions });
}

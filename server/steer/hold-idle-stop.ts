// An idle agent's Stop, held for a person's Resume. Claude Code fires no hook once its turn has
// ended until someone types at its terminal, so a word sent to an idle session would wait there.
// When the agent's policy sets `idleHold`, its Stop hook's answer is held (as a gated call's is,
// the same waiter and the same per-token slots) until a person steers the session: the Stop is
// then blocked with their message, and the agent carries on with it. The hold ends, the Stop let
// through, when its time runs out, the hold is turned off, the pod is paused or closed, the server
// drains, or the agent hangs up; stopping is the safe side (a Stop hook never runs a tool).
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import type { PodState } from "../domain/state/pod-state";
import { idleHoldSeconds } from "../domain/state/tool-policy";
import type { AgentKind } from "../domain/vocabulary";
import { tokenStillValid } from "../access/token-still-valid";
import { appendHookEvents, hookRouteSays, type HookCaller } from "../hooks/append-hook-events";
import { holdMs, type HoldOptions } from "../hooks/gate-tool-call";
import { hookEventId, hookKey } from "../hooks/hook-event-id";
import type { HookInput } from "../hooks/hook-input";
import { waitOnTape } from "../hooks/wait-for-approval";
import type { TapeEvent } from "../wire/events";
import { deliverSteers, pendingSteers, type SteerDelivery } from "./deliver-steers";

const LET_THROUGH: SteerDelivery = { steers: [], output: {} };
/** The agents whose Stop is held: Claude Code's http hook waits as long as the installer says (Codex's and Gemini CLI's command hooks give Stop seconds). */
const HELD_AGENTS: ReadonlySet<AgentKind> = new Set(["claude-code"]);
/** The commits that may end a hold early: a word to this session, a policy change, a pause or a close. */
const ENDS_HOLD = new Set(["session.steered", "agent.policy.set", "pod.paused", "pod.closed"]);

/** A paused pod's agents stop (work waits until it resumes); a closed one's take nothing more. */
const open = (s: PodState) => s.status !== "paused" && s.status !== "closed";

/** Whether this Stop would be held, read from the state alone. */
export function holdsIdle(state: PodState, who: HookCaller, input: HookInput, agent: AgentKind): boolean {
  if (input.hook_event_name !== "Stop" || !HELD_AGENTS.has(agent)) return false;
  const session = Object.hasOwn(state.sessions, input.session_id)
    ? state.sessions[input.session_id]
    : undefined;
  if (session?.agentId !== who.memberId || session.ended || session.parentSessionId) return false;
  return open(state) && idleHoldSeconds(state, who.memberId) > 0;
}

/** Holds the Stop (nothing pending was delivered at it) until a person's word, or lets it through. */
export async function holdIdleStop(
  app: AppContext,
  who: HookCaller,
  state: PodState,
  input: HookInput,
  agent: AgentKind,
  o: HoldOptions,
): Promise<SteerDelivery | "aborted"> {
  if (!holdsIdle(state, who, input, agent) || o.drain.aborted) return LET_THROUGH;
  const release = o.held.acquire(o.heldKey);
  if (!release) return LET_THROUGH;
  try {
    const waitMs = Math.min(idleHoldSeconds(state, who.memberId) * 1000, holdMs(o.waitSeconds));
    const key = hookKey(who.podId, who.memberId, input);
    const held = {
      id: hookEventId(key, "idle-held"),
      type: "session.idle.held",
      actor: who.memberId,
      sessionId: input.session_id,
      body: { sessionId: input.session_id, until: new Date(Date.now() + waitMs).toISOString() },
    } as const;
    await appendHookEvents(app, who, [held], hookRouteSays(who));
    const wakes = (e: TapeEvent) =>
      ENDS_HOLD.has(e.type) &&
      (e.type !== "session.steered" || (e.body as { sessionId?: unknown }).sessionId === input.session_id);
    const waited = await waitOnTape(
      app.store,
      app.bus,
      who.podId,
      { waitMs, signal: o.signal, drain: o.drain },
      {
        wakes,
        read: (now) => {
          if (!now || !open(now) || idleHoldSeconds(now, who.memberId) === 0) return null;
          return pendingSteers(now, who, input, agent).length ? now : undefined;
        },
      },
    );
    if ("ended" in waited) return waited.ended === "aborted" ? "aborted" : LET_THROUGH;
    if (!waited.value) return LET_THROUGH;
    // Held for minutes: a revoked token's agent is told nothing more.
    if (!(await tokenStillValid(app.store, who.tokenId))) return LET_THROUGH;
    return await deliverSteers(app, who, waited.value, input, agent);
  } catch (e) {
    // The hold could not be written or read (the pod closed, the database went away): the agent stops, as it would without one.
    if (!(e instanceof AppError) || e.status >= 500)
      console.error("podwatch: an idle Stop could not be held", e);
    return LET_THROUGH;
  } finally {
    release();
  }
}

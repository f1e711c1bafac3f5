// Delivers a session's steers at one of its agent's hooks: picks what this hook carries
// (steer-answer.ts), writes each delivery on the tape once in the agent's name (ids derived
// from the hook, so a retried hook stores nothing new and carries the same words again), and
// answers in the agent's shape. Two hooks of one session racing for the same steer: the write
// path lets one deliver it; the other carries only what is its own.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import type { TEventInput } from "../domain/events/event-schemas";
import type { PodState, Steer } from "../domain/state/pod-state";
import type { AgentKind } from "../domain/vocabulary";
import { sha256Hex } from "../wire/hash";
import type { ClaudeCodeHookOutput } from "../wire/hooks";
import { appendHookEvents, hookRouteSays, type HookCaller } from "../hooks/append-hook-events";
import { hookEventId, hookKey } from "../hooks/hook-event-id";
import type { HookInput } from "../hooks/hook-input";
import { steerOutput, steersFor, steerWords } from "./steer-answer";

export type SteerDelivery = { steers: Steer[]; output: ClaudeCodeHookOutput };
const NONE: SteerDelivery = { steers: [], output: {} };

const sessionIn = (s: PodState, id: string) => (Object.hasOwn(s.sessions, id) ? s.sessions[id] : undefined);

/** What this hook call would carry, read from the state alone (nothing written). */
export function pendingSteers(state: PodState, who: HookCaller, input: HookInput, agent: AgentKind): Steer[] {
  const session = sessionIn(state, input.session_id);
  if (session?.agentId !== who.memberId) return [];
  return steersFor(session, input.hook_event_name, hookIdOf(hookKey(who.podId, who.memberId, input)), agent);
}

/**
 * The pending interrupt that denies this tool call without being delivered by it. A subagent
 * works for the session that runs it: that session's interrupt stops the subagent's calls too,
 * and is delivered (the turn ended) at the parent's own next hook. Codex goes on after a denied
 * call, so its session's interrupt denies each call until the turn's Stop delivers it.
 */
export function heldInterrupt(state: PodState, who: HookCaller, sessionId: string): Steer[] {
  const session = sessionIn(state, sessionId);
  if (session?.agentId !== who.memberId) return [];
  const interrupt = (session.steers ?? []).find((x) => !x.delivered && x.act === "interrupt");
  return interrupt ? [interrupt] : [];
}

const hookIdOf = (key: string) => sha256Hex(`steer-hook|${key}`).slice(0, 32);

/** The answer for these steers at this hook, in the agent's shape. */
export function answerFor(
  state: PodState,
  agent: AgentKind,
  input: HookInput,
  steers: Steer[],
): ClaudeCodeHookOutput {
  const nameOf = (id: string) => (Object.hasOwn(state.members, id) ? state.members[id]!.displayName : id);
  return steerOutput(agent, input.hook_event_name, steers, steerWords(steers, nameOf));
}

/**
 * Delivers what this hook carries; `also`: events to write with the deliveries (a tool call the
 * interrupt denied). Nothing delivered (none pending, or the write failed) answers `{}` and the
 * steers stay pending for the next hook.
 */
export async function deliverSteers(
  app: AppContext,
  who: HookCaller,
  state: PodState,
  input: HookInput,
  agent: AgentKind,
  also: TEventInput[] = [],
): Promise<SteerDelivery> {
  const steers = pendingSteers(state, who, input, agent);
  if (!steers.length) return NONE;
  const key = hookKey(who.podId, who.memberId, input);
  const hookId = hookIdOf(key);
  const deliveries: TEventInput[] = steers.map((x) => ({
    id: hookEventId(key, `steer|${x.steerId}`),
    type: "session.steer.delivered",
    actor: who.memberId,
    body: { steerId: x.steerId, sessionId: input.session_id, via: input.hook_event_name, hookId },
  }));
  try {
    await appendHookEvents(app, who, [...also, ...deliveries], hookRouteSays(who));
    return { steers, output: answerFor(state, agent, input, steers) };
  } catch (e) {
    if (!(e instanceof AppError) || e.status >= 500)
      console.error("podwatch: a steer could not be delivered", e);
    // The denied call still goes on the tape (its id is the hook's, so a retry stores it once).
    if (also.length)
      await appendHookEvents(app, who, also, hookRouteSays(who)).catch((err: unknown) =>
        console.error("podwatch: a call an interrupt denied could not be recorded", err),
      );
    // Another hook of the session took one of them first: this one carries only what it delivered itself.
    const now = await app.store.readState(who.podId).catch(() => null);
    const mine = now ? steersFor(sessionIn(now, input.session_id), input.hook_event_name, hookId, agent) : [];
    const own = mine.filter((x) => x.delivered?.hookId === hookId);
    return own.length && now ? { steers: own, output: answerFor(now, agent, input, own) } : NONE;
  }
}

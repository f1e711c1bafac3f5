// The budget watcher (docs/protocol/budgets.md#crossing-a-budget): every armed budget whose use has
// reached its limit is reported crossed, as podwatch, with an id that names the budget's round
// (the seq of the budget.set that armed it) — so the report is stored once per round, whichever
// node or retry appends it first, and a budget set again may cross again. Pure.
import { SYSTEM_ACTOR } from "../domain/events/event-schemas";
import { activeMsAt, budgetUse } from "../domain/state/meters";
import type { Budget, PodState } from "../domain/state/pod-state";
import { armedBudgets } from "../domain/state/reduce-budgets";
import type { TEvent } from "../wire/events";
import { systemEventName } from "../shared/system-event-ids";

/** Enough digits for any money or minutes shown; float sums (0.1 + 0.2) do not leak into the tape. */
const tidy = (n: number) => Math.round(n * 1e6) / 1e6;

export const budgetEventId = (podId: string, b: Pick<Budget, "budgetId" | "seq">) =>
  systemEventName(`budget:${podId}:${b.budgetId}:${b.seq}`);

export function budgetExceededEvent(podId: string, b: Budget, used: number): TEvent {
  const body = {
    budget: b.budgetId,
    limit: b.limit,
    used: tidy(used),
    metric: b.metric,
    then: b.then,
    round: b.seq,
    ...(b.agentId ? { agentId: b.agentId } : {}),
  };
  return { id: budgetEventId(podId, b), type: "budget.exceeded", actor: SYSTEM_ACTOR, body };
}

/**
 * The reports due now, and when the next one falls due by the clock alone: only a pod-wide
 * wall_minutes budget grows without events (the pod's active time); every other metric moves
 * with an event, after whose commit the scheduler reads the pod again anyway.
 */
export function budgetsDue(
  podId: string,
  s: PodState,
  now: number,
): { due: TEvent[]; nextAt: number | null } {
  const due: TEvent[] = [];
  let nextAt: number | null = null;
  for (const b of armedBudgets(s)) {
    const used = budgetUse(s, b, now);
    // Not "used >= limit": a figure that is not a number reports the budget rather than hide it.
    if (!(used < b.limit)) {
      due.push(budgetExceededEvent(podId, b, used));
      continue;
    }
    if (b.metric === "wall_minutes" && b.agentId === null && s.meters.activeSince) {
      const at = now + Math.ceil(b.limit * 60_000 - activeMsAt(s, now));
      nextAt = nextAt === null ? at : Math.min(nextAt, at);
    }
  }
  return { due, nextAt };
}

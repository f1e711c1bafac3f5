// What is due in one pod now, as the events the server appends for it: deadline outcomes,
// staleness episodes and crossed budgets, each with its deterministic name as `id`. Pure: the
// scheduler reads the state and the clock, seals each name into the id only the installation can
// derive (server/shared/system-event-ids.ts), and appends.
import { SYSTEM_ACTOR } from "../domain/events/event-schemas";
import { cadenceMinutes, stalenessDue } from "../domain/state/cadence";
import { deadlineOutcome, pendingDeadlines } from "../domain/state/deadlines";
import type { PodState } from "../domain/state/pod-state";
import { budgetsDue } from "./budgets-due";
import type { TEvent } from "../wire/events";
import { systemEventName } from "../shared/system-event-ids";

export type Due = { event: TEvent; fallback?: TEvent };

/** The due events, and when this pod next has something due (null: nothing pending). */
export function timedWork(
  podId: string,
  s: PodState,
  now: number,
  minuteMs: number,
): { due: Due[]; nextAt: number | null } {
  const due: Due[] = [];
  let nextAt: number | null = null;
  const later = (t: number) => (nextAt = nextAt === null ? t : Math.min(nextAt, t));
  for (const { item, at } of pendingDeadlines(s)) {
    const t = Date.parse(at);
    if (t > now) {
      later(t);
      continue;
    }
    const outcome = deadlineOutcome(item)!;
    // The item's seq (the event that opened it) names the round: a task's decision item keeps its
    // id across reviews, and a later round with the same deadline must not reuse the stored id.
    const key = `deadline:${podId}:${item.id}:${item.seq}:${at}`;
    const body = {
      itemId: item.id,
      subject: { kind: item.subject.kind as "escalation" | "task" | "job", id: item.subject.id },
    };
    const event: TEvent = {
      id: systemEventName(key),
      type: "deadline.passed",
      actor: SYSTEM_ACTOR,
      body: { ...body, ...outcome },
    };
    // A default outcome the pod's rules refuse now (e.g. approving while a gate fails) becomes a reminder.
    const fallback: TEvent | undefined =
      outcome.outcome === "reminded"
        ? undefined
        : {
            id: systemEventName(`${key}:reminded`),
            type: "deadline.passed",
            actor: SYSTEM_ACTOR,
            body: { ...body, outcome: "reminded" },
          };
    due.push({ event, ...(fallback ? { fallback } : {}) });
  }
  for (const { agentId, since, dueAt } of stalenessDue(s, minuteMs)) {
    if (dueAt > now) {
      later(dueAt);
      continue;
    }
    const event: TEvent = {
      id: systemEventName(`stale:${podId}:${agentId}:${since}`),
      type: "agent.stale",
      actor: SYSTEM_ACTOR,
      body: { agentId, since, cadenceMinutes: cadenceMinutes(s) },
    };
    due.push({ event });
  }
  const budgets = budgetsDue(podId, s, now);
  for (const event of budgets.due) due.push({ event });
  if (budgets.nextAt !== null) later(budgets.nextAt);
  return { due, nextAt };
}

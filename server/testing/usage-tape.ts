// A generated pod that works as agents do for weeks: many sessions per agent (more than the runs
// the signals keep), tool calls under more names than they count apart, usage reports whose
// costs are no binary fractions (so the order a cost is summed in shows), and tasks reviewed
// across any window's edges. Deterministic per seed; every event applied by the real rules.
import type { AppliedEvent } from "../domain/state/pod-state";
import { Tape } from "./reducer-tape";

const STEP_MS = 17 * 60_000;

function random(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
}

/** About `tasks` × 40 events received from 2026-11-23 (after Tape.team's setup), minutes apart. */
export function usageTape(seed: number, tasks = 120): AppliedEvent[] {
  const rnd = random(seed);
  const t = Tape.team();
  let now = Date.parse("2026-11-23T00:00:00.000Z");
  const add = (type: string, actor: string, body: object = {}, extra: object = {}) => {
    now += Math.floor(rnd() * STEP_MS);
    t.now = new Date(now).toISOString();
    t.add(type, actor, body, extra);
  };
  add("pod.scope_agreed", "admin", { scope: "s", successCriteria: ["done"], cadenceMinutes: 30 });
  add("pod.started", "admin");
  for (let k = 0; k < tasks; k++) {
    const taskId = `t${k}`;
    const sessionId = `s${k}`;
    add("task.added", "chair-1", { taskId, description: `task ${k}` });
    add("task.updated", "impl", { taskId, status: "in_progress" });
    add("session.started", "impl", { via: "claude-code", model: "opus" }, { sessionId });
    for (let c = 0; c < 10 + Math.floor(rnd() * 20); c++) {
      const tool = `tool-${Math.floor(rnd() * 130)}`;
      const toolUseId = `${sessionId}-${c}`;
      add("tool.call", "impl", { toolUseId, tool, phase: "started" }, { sessionId });
      add(
        "tool.call",
        "impl",
        { toolUseId, tool, phase: rnd() < 0.1 ? "failed" : "succeeded" },
        { sessionId },
      );
      if (c % 3 === 2) {
        const model = rnd() < 0.8 ? "opus" : "haiku";
        const costUsd = rnd() < 0.1 ? undefined : rnd() * 0.37;
        const usage = { model, inputTokens: Math.floor(rnd() * 9000), outputTokens: 11, costUsd };
        const [actor, session] = rnd() < 0.05 ? ["orch", `o${sessionId}`] : ["impl", sessionId];
        add("usage.reported", actor, usage, { sessionId: session });
      }
    }
    for (let round = 0; ; round++) {
      add("task.review_requested", "impl", { taskId });
      const verdict = round < 2 && rnd() < 0.3 ? "changes_requested" : "approve";
      add("review", "rev", { taskId, verdict });
      if (verdict === "approve") break;
      add("task.updated", "impl", { taskId, status: "in_progress" });
    }
    add("decision", "ana", {
      subject: { kind: "task", id: taskId },
      verdict: rnd() < 0.9 ? "approve" : "reject",
      rationale: "r",
    });
    add("session.ended", "impl", {}, { sessionId });
  }
  return t.events;
}

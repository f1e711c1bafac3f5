// Signals recomputation: a 100,000-event pod tape built in memory — a team working
// tasks through review with evidence, checkpoints, agent sessions with tool calls and usage —
// and the time to recompute its signals from the tape: as of its head (signalsAsOf) and for one
// week's window (signalsBetween, which still replays the whole tape). In-process, no server.
import { availableParallelism } from "node:os";
import { ZEventInput } from "../server/domain/events/event-schemas";
import { signalsAsOf, signalsBetween } from "../server/domain/signals/signals-window";
import { podTotals } from "../server/domain/signals/combine";
import { applyEvent } from "../server/domain/state/apply-event";
import { emptyPodState, type AppliedEvent } from "../server/domain/state/pod-state";

const EVENTS = 100_000;
const IMPLEMENTERS = ["impl-1", "impl-2", "impl-3"];
const REVIEWERS = ["rev-1", "rev-2"];
const HASH = "e".repeat(64);

/** A deterministic pseudo-random sequence (the same tape on every run). */
function random(seed: number) {
  let x = seed;
  return () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
}

/** The tape, every event applied as the write path would (a refusal here is a bug in the bench). */
export function buildPodTape(total = EVENTS): AppliedEvent[] {
  const rnd = random(16);
  let state = emptyPodState();
  let now = Date.parse("2026-11-01T08:00:00.000Z");
  const tape: AppliedEvent[] = [];
  const add = (input: object) => {
    now += 5_000 + Math.floor(rnd() * 30_000);
    const e = {
      ...ZEventInput.parse(input),
      seq: state.seq + 1,
      receivedAt: new Date(now).toISOString(),
    } as AppliedEvent;
    state = applyEvent(state, e);
    tape.push(e);
  };
  add({
    type: "member.joined",
    actor: "admin",
    body: { memberId: "ana", kind: "human", displayName: "Ana", access: "approver" },
  });
  for (const id of ["chair", ...IMPLEMENTERS, ...REVIEWERS])
    add({ type: "member.joined", actor: "admin", body: { memberId: id, kind: "agent", displayName: id } });
  add({ type: "role.assigned", actor: "admin", body: { memberId: "chair", role: "chair" } });
  add({
    type: "pod.scope_agreed",
    actor: "admin",
    body: { scope: "bench", successCriteria: ["done"], cadenceMinutes: 30 },
  });
  add({ type: "pod.started", actor: "admin", body: {} });
  for (let k = 0; tape.length < total; k++) {
    const taskId = `t${k}`;
    const impl = IMPLEMENTERS[k % IMPLEMENTERS.length]!;
    const session = `s${k}`;
    add({ type: "task.added", actor: "chair", body: { taskId, description: `task ${k}` } });
    add({ type: "task.updated", actor: impl, body: { taskId, status: "in_progress" } });
    add({
      type: "session.started",
      actor: impl,
      sessionId: session,
      body: { via: "claude-code", model: "opus" },
    });
    for (let round = 0; ; round++) {
      const calls = 20 + Math.floor(rnd() * 60); // a Claude Code session makes many tool calls per task (two events each)
      for (let c = 0; c < calls; c++) {
        const tool = ["Bash", "Read", "Edit", "Grep", "Write"][Math.floor(rnd() * 5)]!;
        add({
          type: "tool.call",
          actor: impl,
          sessionId: session,
          body: { toolUseId: `${session}-${round}-${c}`, tool, phase: "started" },
        });
        add({
          type: "tool.call",
          actor: impl,
          sessionId: session,
          body: { toolUseId: `${session}-${round}-${c}`, tool, phase: rnd() < 0.05 ? "failed" : "succeeded" },
        });
        if (c % 4 === 3)
          add({
            type: "usage.reported",
            actor: impl,
            sessionId: session,
            body: {
              model: "opus",
              inputTokens: Math.floor(rnd() * 20_000),
              outputTokens: Math.floor(rnd() * 2_000),
              cacheReadTokens: 50_000,
              costUsd: Math.round(rnd() * 50) / 100,
            },
          });
      }
      add({
        type: "checkpoint",
        actor: impl,
        body: { completed: [`round ${round}`], next: ["review"], blocked: [] },
      });
      const bundleId = `ev-${k}-${round}`;
      add({
        type: "evidence.bundle",
        actor: impl,
        taskId,
        body: {
          bundleId,
          commands: [{ command: "npm test", exit_code: 0 }],
          artifacts: [],
          env: { commit: "c" },
          manifestHash: HASH,
        },
      });
      add({ type: "task.review_requested", actor: impl, body: { taskId, evidenceIds: [bundleId] } });
      const reviewer = REVIEWERS[(k + round) % REVIEWERS.length]!;
      const verdict = round < 2 && rnd() < 0.35 ? "changes_requested" : "approve";
      add({ type: "review", actor: reviewer, body: { taskId, verdict } });
      if (verdict === "approve") break;
      add({ type: "task.updated", actor: impl, body: { taskId, status: "in_progress" } });
    }
    add({
      type: "decision",
      actor: rnd() < 0.5 ? "ana" : "chair",
      body: {
        subject: { kind: "task", id: taskId },
        verdict: rnd() < 0.9 ? "approve" : "reject",
        rationale: "r",
      },
    });
    add({ type: "session.ended", actor: impl, sessionId: session, body: {} });
  }
  return tape.slice(0, total);
}

function timed<T>(run: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = run();
  return { ms: performance.now() - t, value };
}

export function benchSignals(): [string, string][] {
  const tape = buildPodTape();
  const head = tape.at(-1)!;
  const asOf = timed(() => signalsAsOf(tape, head.seq));
  const from = Date.parse(tape[Math.floor(tape.length / 2)]!.receivedAt);
  const window = timed(() => signalsBetween(tape, from, from + 7 * 24 * 3600_000));
  const total = podTotals(asOf.value);
  if (total.implementer.tasksApproved === 0 || podTotals(window.value).reviewer.reviews === 0)
    throw new Error("the bench tape produced no signals");
  const tasks = total.implementer.tasksApproved + total.implementer.tasksRejected;
  const cores = `${availableParallelism()} cores, one used`;
  return [
    [
      `signals recomputed from a ${tape.length.toLocaleString("en")}-event pod tape, ${tasks} tasks (as of its head, every event replayed; ${cores})`,
      `${Math.round(asOf.ms).toLocaleString("en")} ms (${Math.round(tape.length / (asOf.ms / 1000)).toLocaleString("en")} events/s)`,
    ],
    [
      `signals over a one-week window of that tape (the whole tape replayed, the week counted)`,
      `${Math.round(window.ms).toLocaleString("en")} ms`,
    ],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const [k, v] of benchSignals()) console.log(`  ${k}  ${v}`);
}

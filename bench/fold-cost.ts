// The fold's cost per event on a lived-in pod (bench/lived-in-pod.ts's shape), in process: a
// note, and a task taken through implement → review → decide, each applied to the lived-in
// state. What an append's CPU in the domain is, apart from HTTP and the database.
//
//   npx tsx bench/fold-cost.ts
import { ZEventInput } from "../server/domain/events/event-schemas";
import { applyEvent } from "../server/domain/state/apply-event";
import { emptyPodState, type AppliedEvent, type PodState } from "../server/domain/state/pod-state";

const HASH = "e".repeat(64);
let now = Date.parse("2026-11-01T08:00:00.000Z");
const applied = (s: PodState, input: object): AppliedEvent =>
  ({
    ...ZEventInput.parse(input),
    seq: s.seq + 1,
    receivedAt: new Date((now += 1000)).toISOString(),
  }) as AppliedEvent;
/** Time spent in applyEvent alone (the events' parsing is not the fold's). */
let foldMs = 0;
const timedApply = (s: PodState, e: AppliedEvent) => {
  const t = performance.now();
  const out = applyEvent(s, e);
  foldMs += performance.now() - t;
  return out;
};

export function livedInState(tasks = 3000, taken = 300, notes = 15_000): PodState {
  let s = emptyPodState();
  const add = (input: object) => (s = applyEvent(s, applied(s, input)));
  for (const [id, role] of [
    ["impl", "implementer"],
    ["rev", "reviewer"],
    ["chair", "chair"],
  ] as const) {
    add({ type: "member.joined", actor: "admin", body: { memberId: id, kind: "agent", displayName: id } });
    add({ type: "role.assigned", actor: "admin", body: { memberId: id, role } });
  }
  // Active, as a working pod is: the cadence watch follows who has work in progress.
  add({
    type: "pod.scope_agreed",
    actor: "chair",
    body: { scope: "billing export", successCriteria: ["exports balance"] },
  });
  add({ type: "pod.started", actor: "chair", body: {} });
  const task = (i: number) => ({
    task_id: `task_${String(i).padStart(4, "0")}`,
    description: `Implement part ${i} of the billing export: read the ledger, convert the currency, write the CSV (${"x".repeat(120)})`,
    status: "pending",
    metadata: {
      area: `area-${i % 17}`,
      estimate: (i % 8) + 1,
      labels: ["backend", "billing"],
      owner: `team-${i % 5}`,
    },
  });
  for (let f = 0; f < tasks; f += 500)
    add({
      type: "plan.imported",
      actor: "chair",
      body: { plan: { tasks: Array.from({ length: 500 }, (_, k) => task(f + k)) } },
    });
  for (let k = 0; k < taken; k++) takeTask(k, add);
  for (let i = 0; i < notes; i++)
    add({ type: "note", actor: "impl", body: { kind: "OBSERVATION", text: `note ${i}` } });
  return s;
}

function takeTask(k: number, add: (input: object) => void) {
  const taskId = `task_${String(k).padStart(4, "0")}`;
  add({ type: "task.updated", actor: "impl", body: { taskId, status: "in_progress" } });
  add({
    type: "evidence.bundle",
    actor: "impl",
    taskId,
    body: {
      bundleId: `ev-${k}`,
      commands: [{ command: "npm test", exit_code: 0 }],
      artifacts: [],
      env: { commit: "c" },
      manifestHash: HASH,
    },
  });
  add({ type: "task.review_requested", actor: "impl", body: { taskId, evidenceIds: [`ev-${k}`] } });
  add({ type: "review", actor: "rev", body: { taskId, verdict: "approve" } });
  add({
    type: "decision",
    actor: "chair",
    body: { subject: { kind: "task", id: taskId }, verdict: "approve", rationale: "r" },
  });
}

function perEvent(
  label: string,
  base: PodState,
  n: number,
  step: (s: PodState, i: number, add: (input: object) => void) => void,
  eventsPerStep: number,
) {
  let s = base;
  const add = (input: object) => (s = timedApply(s, applied(s, input)));
  foldMs = 0;
  for (let i = 0; i < n; i++) step(s, i, add);
  const us = (foldMs * 1000) / (n * eventsPerStep);
  console.log(`  ${label.padEnd(48)} ${us.toFixed(1)} µs/event`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = performance.now();
  const lived = livedInState(3000, 300, Number(process.env.NOTES ?? 15_000));
  console.log(
    `lived-in state built in ${Math.round(performance.now() - t)} ms (seq ${lived.seq}, ${(JSON.stringify(lived).length / 1e6).toFixed(2)} MB)`,
  );
  const fresh = livedInState(100, 0, 0);
  for (const [name, base] of [
    ["fresh", fresh],
    ["lived-in", lived],
  ] as const) {
    perEvent(
      `${name}: note`,
      base,
      5000,
      (_s, i, add) => add({ type: "note", actor: "impl", body: { kind: "OBSERVATION", text: `n${i}` } }),
      1,
    );
    perEvent(
      `${name}: implement → review → decide`,
      base,
      90,
      (_s, i, add) => takeTask(name === "fresh" ? i : 1000 + i, add),
      5,
    );
  }
}

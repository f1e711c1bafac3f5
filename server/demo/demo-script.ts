// What the demo pod says: a believable implementer / reviewer / orchestrator
// loop over a small plan, as a pure generator of event inputs.
import type { TEventInput } from "../wire/events";

const TASKS = [
  "Parse the task manifest and reject unknown fields",
  "Stream the command transcript into the evidence bundle",
  "Add retry with jitter to the webhook sender",
  "Cache plan reads per pod",
  "Cover the escrow state machine with property tests",
];

type Step = Omit<TEventInput, "id" | "ts">;

function* cycle(task: string, next: string, round: number): Generator<Step> {
  const sentBack = round % 2 === 0;
  yield { type: "checkpoint", actor: "orchestrator-1", role: "orchestrator", body: { completed: [], next: [`Implementer takes: ${task}`], blocked: [] } };
  yield { type: "note", actor: "implementer-1", role: "implementer", body: { kind: "OBSERVATION", text: `Read the code paths touched by "${task}"; two call sites, no tests yet.` } };
  yield { type: "note", actor: "implementer-1", role: "implementer", body: { kind: "HYPOTHESIS", text: `A focused change in one module is enough for "${task}".`, test: "unit tests + one integration run", budget: "45 min" } };
  yield { type: "checkpoint", actor: "implementer-1", role: "implementer", body: { completed: [`Implemented: ${task}`], next: ["Ask for review with evidence"], blocked: [] } };
  yield { type: "note", actor: "implementer-1", role: "implementer", body: { kind: "REQUEST_VERIFY", text: `Please verify "${task}" from scratch; evidence bundle attached.` } };
  if (sentBack) {
    yield { type: "note", actor: "reviewer-1", role: "reviewer", body: { kind: "STATUS", text: `Changes requested on "${task}": an edge case (empty input) is not covered.` } };
    yield { type: "checkpoint", actor: "implementer-1", role: "implementer", body: { completed: ["Covered the empty-input edge case"], next: ["Re-request review"], blocked: [] } };
  }
  yield { type: "note", actor: "reviewer-1", role: "reviewer", body: { kind: "STATUS", text: `Approved "${task}": reproduced the tests locally, all green.` } };
  yield { type: "checkpoint", actor: "orchestrator-1", role: "orchestrator", body: { completed: [task], next: [next], blocked: round % 3 === 2 ? ["Waiting on a human: retention period for run logs"] : [] } };
}

/** An endless, deterministic stream of demo steps. */
export function* demoSteps(): Generator<Step> {
  for (let round = 0; ; round++) {
    const i = round % TASKS.length;
    yield* cycle(TASKS[i]!, TASKS[(i + 1) % TASKS.length]!, round);
  }
}

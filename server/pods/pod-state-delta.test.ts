// Property: a change notice applied to the view the browser holds gives the view GET /state
// would answer, for random pod histories cut into random frames, and from any view between the
// notice's two seqs (a page that read /state while the notice was on its way).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acceptHistory, historyStep, historySteps, TEAM_SETUP } from "../testing/pod-history";
import { applyEvent } from "../domain/state/apply-event";
import { ZEventInput } from "../domain/events/event-schemas";
import { emptyPodState, type AppliedEvent, type PodState } from "../domain/state/pod-state";
import { applyStateDelta, deltaFits } from "../../components/pod/apply-state-delta";
import { isEmptyDelta, podStateDelta } from "./pod-state-delta";
import { isShared } from "../domain/state/shared-record";
import { presentPodState } from "./present-pod-state";

const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** `setup`: what the team does first, before the history (a plan, say). */
function tapeOf(steps: Parameters<typeof acceptHistory>[1], setup: unknown[] = []) {
  let s = emptyPodState();
  const events: AppliedEvent[] = [];
  for (const input of [...TEAM_SETUP, ...setup]) {
    const e = {
      ...ZEventInput.parse(input),
      seq: s.seq + 1,
      receivedAt: "2026-11-22T09:59:00.000Z",
    } as AppliedEvent;
    s = applyEvent(s, e);
    events.push(e);
  }
  return [...events, ...acceptHistory(s, steps).events];
}

/** Every state of the fold, from the empty pod on. */
function statesOf(tape: AppliedEvent[]): PodState[] {
  const states = [emptyPodState()];
  for (const e of tape) states.push(applyEvent(states.at(-1)!, e));
  return states;
}

/** The notices between the states of one history, applied frame by frame, give GET /state's view. */
function checkFrames(steps: Parameters<typeof acceptHistory>[1], cuts: number[], setup: unknown[] = []) {
  const states = statesOf(tapeOf(steps, setup));
  let view = plain(presentPodState(states[0]!));
  for (let at = 0, i = 0; at < states.length - 1; i++) {
    const to = Math.min(states.length - 1, at + cuts[i % cuts.length]!);
    const delta = plain(podStateDelta(states[at]!, states[to]!));
    expect(deltaFits(view, delta)).toBe("apply");
    const expected = plain(presentPodState(states[to]!));
    view = applyStateDelta(view, delta);
    expect(view).toEqual(expected);
    // A page that read /state somewhere inside the frame reads it again: an inbox card may
    // have come and gone within the frame, and the notice cannot name it.
    const mid = Math.floor((at + to) / 2);
    if (mid > at) expect(deltaFits({ seq: mid }, delta)).toBe("gap");
    at = to;
  }
  return states.at(-1)!;
}

describe("a pod's change notice", () => {
  it("turns the view at any seq of a frame into the view at its end, for random histories and frames", () => {
    fc.assert(
      fc.property(
        historySteps(120),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 200 }),
        (steps, cuts) => void checkFrames(steps, cuts),
      ),
      { numRuns: 60 },
    );
  });

  it("does so on pods whose records are shared tries (a plan of many tasks)", () => {
    const tasks = Array.from({ length: 24 }, (_, i) => ({
      task_id: `t${i + 1}`,
      description: "d",
      status: "pending",
      metadata: {},
    }));
    const plan = [{ type: "plan.imported", actor: "chair-1", body: { plan: { tasks } } }];
    let shared = 0;
    const frames = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(fc.array(historyStep(24), { minLength: 150, maxLength: 250 }), frames, (steps, cuts) => {
        const last = checkFrames(steps, cuts, plan);
        if (isShared(last.tasks)) shared++;
      }),
      { numRuns: 15 },
    );
    expect(shared).toBe(15);
  });

  it("carries only what an event touched: a note on a pod with many tasks sends no task", () => {
    let s = applyEvent(emptyPodState(), {
      ...ZEventInput.parse(TEAM_SETUP[0]),
      seq: 1,
      receivedAt: "2026-11-22T09:59:00.000Z",
    } as AppliedEvent);
    const add = (taskId: string) => ({
      id: crypto.randomUUID(),
      type: "task.added",
      actor: "admin",
      body: { taskId, description: `Task ${taskId}` },
    });
    for (let i = 0; i < 200; i++)
      s = applyEvent(s, {
        ...ZEventInput.parse(add(`t${i}`)),
        seq: s.seq + 1,
        receivedAt: "2026-11-22T10:00:00.000Z",
      } as AppliedEvent);
    const note = ZEventInput.parse({
      id: crypto.randomUUID(),
      type: "note",
      actor: "admin",
      body: { kind: "STATUS", text: "all well" },
    });
    const after = applyEvent(s, {
      ...note,
      seq: s.seq + 1,
      receivedAt: "2026-11-22T10:00:01.000Z",
    } as AppliedEvent);
    const delta = podStateDelta(s, after);
    expect(delta.lists.board).toBeUndefined();
    expect(JSON.stringify(delta).length).toBeLessThan(1_000);

    const moved = ZEventInput.parse({
      id: crypto.randomUUID(),
      type: "task.updated",
      actor: "admin",
      body: { taskId: "t7", status: "in_progress" },
    });
    const moving = podStateDelta(
      after,
      applyEvent(after, {
        ...moved,
        seq: after.seq + 1,
        receivedAt: "2026-11-22T10:00:02.000Z",
      } as AppliedEvent),
    );
    expect(moving.lists.board?.put.map((t) => t.taskId)).toEqual(["t7"]);
    expect(moving.order).toBeUndefined();
  });

  it("is empty between two states that differ only in seq", () => {
    const s = emptyPodState();
    expect(isEmptyDelta(podStateDelta(s, { ...s, seq: 3 }))).toBe(true);
  });

  it("says when a view is behind it (read again) or already past it (ignore)", () => {
    expect(deltaFits({ seq: 4 }, { fromSeq: 5, seq: 9 })).toBe("gap");
    expect(deltaFits({ seq: 9 }, { fromSeq: 5, seq: 9 })).toBe("stale");
    expect(deltaFits({ seq: 5 }, { fromSeq: 5, seq: 9 })).toBe("apply");
    expect(deltaFits({ seq: 7 }, { fromSeq: 5, seq: 9 })).toBe("gap");
  });
});

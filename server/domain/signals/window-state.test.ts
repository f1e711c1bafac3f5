// A window folded from a checkpoint with its counts in the state's place (stepWindowState) answers
// exactly as the whole tape replayed with the window counted apart (signalsBetween): the same
// JSON, so every float cost sum was added in the same order, the runs and tools kept the same.
import { describe, expect, it } from "vitest";
import { usageTape } from "../../testing/usage-tape";
import { replay } from "../state/apply-event";
import { emptyPodState, type AppliedEvent } from "../state/pod-state";
import { signalsBetween, stepWindowState, windowStart } from "./signals-window";

const DAY = 24 * 3600_000;

/** The window as window-of-tape.ts folds it: from the state after every event received before it. */
function fromCheckpoint(tape: AppliedEvent[], fromMs: number, toMs: number) {
  const before = tape.findIndex((e) => Date.parse(e.receivedAt) >= fromMs);
  const k = before < 0 ? tape.length : before;
  const base = replay(tape.slice(0, k), emptyPodState());
  return tape.slice(k).reduce((s, e) => stepWindowState(s, e, fromMs, toMs), windowStart(base)).signals;
}

describe("a window folded with its counts in the state's place", () => {
  const tape = usageTape(7);
  const first = Date.parse(tape[0]!.receivedAt);
  const last = Date.parse(tape.at(-1)!.receivedAt);

  // Ends between a review's request and its review: what the fold remembers changes after the window.
  const requested = Date.parse(
    tape.findLast((e) => e.type === "task.review_requested" && e.seq < 3000)!.receivedAt,
  );

  it.each([
    ["the last week", last - 7 * DAY, last + 1],
    ["a window that ends while a task waits for review", requested - 5 * DAY, requested + 1],
    ["a week in the middle (events after it are folded, not counted)", first + 9 * DAY, first + 16 * DAY],
    ["the whole tape", first, last + 1],
    ["a window no event falls in", last + DAY, last + 2 * DAY],
  ])("equals the whole tape's replay: %s", (_, fromMs, toMs) => {
    const expected = signalsBetween(tape, fromMs, toMs);
    expect(JSON.stringify(fromCheckpoint(tape, fromMs, toMs))).toBe(JSON.stringify(expected));
  });

  it("is tested on a pod past the signals' caps, with costs that are no binary fractions", () => {
    const all = signalsBetween(tape, first, last + 1);
    const impl = all.agents.impl!;
    expect(Object.keys(impl.runs).length).toBe(50);
    expect(impl.usage.sessions).toBeGreaterThan(50);
    expect(impl.usage.tools["(other)"]).toBeDefined();
    expect(all.cost.length).toBeLessThanOrEqual(240);
    expect(tape.filter((e) => e.type === "usage.reported").length).toBeGreaterThan(240);
    const cost = impl.usage.byModel.opus!.costUsd;
    expect(cost * 2 ** 20).not.toBe(Math.round(cost * 2 ** 20));
    const week = signalsBetween(tape, last - 7 * DAY, last + 1);
    expect(week.agents.impl!.usage.byModel.opus!.costUsd).toBeGreaterThan(0);
    expect(
      Object.keys(week.tracking.reviewRequestedAt).length + all.agents.rev!.reviewer.reviews,
    ).toBeGreaterThan(0);
  });
});

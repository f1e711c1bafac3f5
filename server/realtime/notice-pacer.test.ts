import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { paceByPod } from "./notice-pacer";

describe("paceByPod", () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it("runs a pod's first request at once, and folds the requests inside its window into one run at the end", () => {
    const runs: string[] = [];
    const pacer = paceByPod(
      (podId) => runs.push(podId),
      () => 40,
    );
    pacer.request("a");
    expect(runs).toEqual(["a"]);
    for (let i = 0; i < 5; i++) pacer.request("a");
    pacer.request("b"); // another pod has a window of its own
    expect(runs).toEqual(["a", "b"]);
    vi.advanceTimersByTime(39);
    expect(runs).toEqual(["a", "b"]);
    vi.advanceTimersByTime(1);
    expect(runs).toEqual(["a", "b", "a"]);
    vi.advanceTimersByTime(40); // a quiet window: it ends with no run, and the next request runs at once
    expect(runs).toEqual(["a", "b", "a"]);
    pacer.request("a");
    expect(runs).toEqual(["a", "b", "a", "a"]);
    pacer.stop();
  });

  it("never leaves a request unanswered: each window that saw one ends with a run", () => {
    const runs: number[] = [];
    const pacer = paceByPod(
      () => runs.push(Date.now()),
      () => 10,
    );
    for (let t = 0; t < 95; t++) {
      pacer.request("a"); // one a millisecond: windows from 0, 10, … 90
      vi.advanceTimersByTime(1);
    }
    expect(runs.length).toBe(10);
    vi.advanceTimersByTime(5);
    expect(runs.length).toBe(11); // the requests of the last window, at its end
    vi.advanceTimersByTime(100);
    expect(runs.length).toBe(11);
    pacer.stop();
  });

  it("does not pace a pod whose window is under a millisecond", () => {
    let runs = 0;
    const pacer = paceByPod(
      () => runs++,
      () => 0,
    );
    for (let i = 0; i < 3; i++) pacer.request("a");
    expect(runs).toBe(3);
  });

  it("forgets its windows when stopped", () => {
    let runs = 0;
    const pacer = paceByPod(
      () => runs++,
      () => 10,
    );
    pacer.request("a");
    pacer.request("a");
    pacer.stop();
    vi.advanceTimersByTime(100);
    expect(runs).toBe(1);
  });
});

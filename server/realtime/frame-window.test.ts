import { describe, expect, it } from "vitest";
import { frameWindowMs, MAX_FRAME_WINDOW_MS, noticeWindowMs } from "./frame-window";

describe("frameWindowMs", () => {
  it("holds back no pod whose frames cost less than a millisecond of the budget", () => {
    expect(frameWindowMs(0, 50_000)).toBe(0);
    expect(frameWindowMs(49, 50_000)).toBe(0);
  });

  it("grows with the sockets a frame goes to, so a room's frames a second times its sockets stays within the budget", () => {
    expect(frameWindowMs(500, 50_000)).toBe(10);
    expect(frameWindowMs(2000, 50_000)).toBe(40);
    for (const sockets of [60, 500, 2000, 10_000]) {
      const window = frameWindowMs(sockets, 50_000);
      if (window < MAX_FRAME_WINDOW_MS) expect((1000 / window) * sockets).toBeLessThanOrEqual(50_000);
    }
  });

  it("never holds a frame longer than the cap", () => {
    expect(frameWindowMs(1_000_000, 50_000)).toBe(MAX_FRAME_WINDOW_MS);
  });

  it("paces a pod's change notices at four frames' windows, under the same cap, and not a pod whose frames are not paced", () => {
    expect(noticeWindowMs(49, 50_000)).toBe(0);
    expect(noticeWindowMs(500, 50_000)).toBe(40);
    expect(noticeWindowMs(2000, 50_000)).toBe(160);
    expect(noticeWindowMs(10_000, 50_000)).toBe(MAX_FRAME_WINDOW_MS);
  });
});

import { describe, expect, it } from "vitest";
import { fairShare, PUSH_SLOTS_PER_DEVICE, PUSH_SLOTS_PER_PERSON } from "./fair-share";

const row = (id: number, userId: string, target: string, channel = "push") => ({
  id,
  userId,
  channel,
  target,
});

describe("fairShare", () => {
  it("takes the oldest, at most a person's share and one request per device", () => {
    const ann = Array.from({ length: 20 }, (_, i) => row(i + 1, "ann", `ann-${i}`));
    const ids = fairShare([...ann, row(21, "bo", "bo-1"), row(22, "bo", "bo-1")], [], 16);
    expect(PUSH_SLOTS_PER_DEVICE).toBe(1);
    expect(ids).toEqual([...Array.from({ length: PUSH_SLOTS_PER_PERSON }, (_, i) => i + 1), 21]);
  });
  it("counts what is under way, keeps a device's rows in order, and stops at the limit", () => {
    const underWay = [row(0, "cy", "cy-phone"), row(0, "cy", "cy-phone")];
    const candidates = [row(3, "cy", "cy-phone"), row(4, "cy", "cy-laptop"), row(5, "cy", "cy-laptop")];
    expect(fairShare(candidates, underWay, 16)).toEqual([4]);
    // Mail to a person is its own "device", but the person's share covers it too.
    expect(fairShare([row(1, "di", "di", "email"), row(2, "di", "di-phone")], [], 16)).toEqual([1, 2]);
    expect(fairShare([row(1, "di", "di", "email"), row(2, "di", "di-phone")], [], 1)).toEqual([1]);
  });
});

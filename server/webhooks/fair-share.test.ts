import { describe, expect, it } from "vitest";
import { fairShare, PER_POD, WEBHOOK_SLOTS, type Busy, type Candidate } from "./fair-share";

/** `n` due deliveries of one pod, over `endpoints` endpoints, in the claim's order (turns 1..n). */
const pod = (podId: string, n: number, endpoints = n): Candidate[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${podId}-${i}`,
    endpointId: `${podId}-e${i % endpoints}`,
    podId,
    podTurn: i + 1,
  }));
const busy = (podId: string, n: number, endpoints = n): Busy[] =>
  Array.from({ length: n }, (_, i) => ({ podId, endpointId: `${podId}-e${i % endpoints}` }));
const pods = (picked: Candidate[]) =>
  picked.reduce((m, c) => m.set(c.podId, (m.get(c.podId) ?? 0) + 1), new Map<string, number>());

describe("fair share of the webhook slots", () => {
  it("each pod's first turn before any pod's second", () => {
    const picked = fairShare([...pod("a", 10), ...pod("b", 10), ...pod("c", 1)], [], 3);
    expect(picked.map((c) => c.podId).sort()).toEqual(["a", "b", "c"]);
  });

  it("a pod takes at most its cap, counting what it has under way", () => {
    expect(pods(fairShare(pod("a", 40), [], WEBHOOK_SLOTS)).get("a")).toBe(PER_POD);
    expect(pods(fairShare(pod("a", 40), busy("a", 10), WEBHOOK_SLOTS - 10)).get("a")).toBe(PER_POD - 10);
  });

  it("an endpoint takes at most 4, counting what it has under way", () => {
    expect(fairShare(pod("a", 10, 1), [], WEBHOOK_SLOTS)).toHaveLength(4);
    expect(fairShare(pod("a", 10, 1), busy("a", 3, 1), WEBHOOK_SLOTS - 3)).toHaveLength(1);
  });

  it("pods whose receivers hang leave the reserve to pods with nothing under way", () => {
    // Six pods at their cap (96 slots) and then 30 more pods with one attempt each.
    const underWay = [..."uvwxyz"].flatMap((p) => busy(p, PER_POD));
    for (let i = 0; i < 30; i++) underWay.push(...busy(`one${i}`, 1));
    const free = WEBHOOK_SLOTS - underWay.length;
    const waiting = [...pod("one0", 5), ...pod("new1", 5), ...pod("new2", 5)];
    expect(pods(fairShare(waiting, underWay, free))).toEqual(
      new Map([
        ["new1", 1],
        ["new2", 1],
      ]),
    );
  });

  it("a pod under way takes more slots only while more than the reserve stays free", () => {
    // 40 free of 41: the reserve is 10, and the pod's cap comes first (15 more).
    expect(fairShare(pod("a", 20), busy("a", 1), 40)).toHaveLength(15);
    // 8 free of 9: the reserve is 2, so 6 more; a pod with nothing under way still gets its first.
    expect(fairShare(pod("a", 20), busy("a", 1), 8)).toHaveLength(6);
    expect(pods(fairShare([...pod("a", 20), ...pod("b", 1)], busy("a", 1), 8)).get("b")).toBe(1);
  });
});

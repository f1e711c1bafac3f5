// retryTransient: what it sends again (unreachable, 429, 5xx) and what it never does (a refusal a
// retry cannot fix, a caller that gave up, a try past its time).
import { describe, expect, it } from "vitest";
import { Interrupted, PodwatchError } from "./errors";
import { retryTransient } from "./retry";

const unreachable = () => new PodwatchError(0, "unreachable", "cannot reach podwatch");

/** A send that fails with each of `errors` in turn, then answers "stored". */
function sequence(...errors: Error[]) {
  const tries: number[] = [];
  return {
    tries,
    send: async () => {
      tries.push(tries.length + 1);
      const e = errors[tries.length - 1];
      if (e) throw e;
      return "stored";
    },
  };
}

describe("retryTransient", () => {
  it("sends again after an unreachable server, a 503 and a 429, and tells each retry", async () => {
    const s = sequence(
      unreachable(),
      new PodwatchError(503, "unavailable", "draining"),
      new PodwatchError(429, "rate_limited", "slow down"),
    );
    const told: [string, number][] = [];
    expect(await retryTransient(s.send, { onRetry: (e, n) => told.push([e.code, n]) })).toBe("stored");
    expect(s.tries).toEqual([1, 2, 3, 4]);
    expect(told).toEqual([
      ["unreachable", 1],
      ["unavailable", 2],
      ["rate_limited", 3],
    ]);
  });

  it("throws at once what a retry cannot fix: a 4xx, or an error that is not the server's", async () => {
    for (const e of [new PodwatchError(409, "escalation_exists", "exists"), new TypeError("bug")]) {
      const s = sequence(e);
      await expect(retryTransient(s.send)).rejects.toBe(e);
      expect(s.tries).toEqual([1]);
    }
  });

  it("gives up with the last error once its time is up", async () => {
    const last = unreachable();
    const s = sequence(last, unreachable());
    await expect(retryTransient(s.send, { seconds: 0 })).rejects.toBe(last);
    expect(s.tries).toEqual([1]);
  });

  it("stops as interrupted when its caller gives up", async () => {
    const stop = new AbortController();
    const s = sequence(unreachable(), unreachable());
    const sent = retryTransient(s.send, { signal: stop.signal, onRetry: () => stop.abort() });
    await expect(sent).rejects.toBeInstanceOf(Interrupted);
    expect(s.tries).toEqual([1]);
  });
});

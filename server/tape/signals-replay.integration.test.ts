// Property: through the real write path and store, the signals kept in the stored
// projection equal the signals recomputed from the tape read back, at every batch's seq — on
// SQLite and PostgreSQL. Random pod histories, appended in random batch sizes.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signalsAsOf } from "../domain/signals/signals-window";
import { emptyPodState, type AppliedEvent } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { acceptHistory, asInputs, historySteps, TEAM_SETUP } from "../testing/pod-history";
import { testProviders } from "../testing/test-databases";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { TEST_WRITER } from "../testing/test-writer";

async function readTape(s: TestServer, podId: string): Promise<AppliedEvent[]> {
  const out: AppliedEvent[] = [];
  for (;;) {
    const page = await s.app.store.readEvents(podId, out.length ? out.at(-1)!.seq : 0, 500);
    out.push(...page.map(toAppliedEvent));
    if (page.length < 500) return out;
  }
}

describe.each(testProviders())("stored signals equal a replay of the stored tape on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s?.stop());

  it("after every batch of a random history", async () => {
    let agentsSeen = 0;
    await fc.assert(
      fc.asyncProperty(
        historySteps(120),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 40 }),
        async (steps, sizes) => {
          // What the rules accept, worked out in the domain first: every batch must then be accepted whole.
          const setup = acceptHistory(emptyPodState(), TEAM_SETUP as never, false);
          const inputs = asInputs([...setup.events, ...acceptHistory(setup.state, steps, false).events]);
          const podId: string = (
            await api(s.url, "POST", "/api/v1/pods", { name: "signals", mode: "collaboration" })
          ).body.id;
          let at = 0;
          for (let b = 0; at < inputs.length; b++) {
            const batch = inputs.slice(at, at + sizes[b % sizes.length]!);
            at += batch.length;
            await s.app.append(podId, batch, TEST_WRITER);
            const stored = (await s.app.store.readState(podId))!;
            const tape = await readTape(s, podId);
            expect(stored.seq).toBe(tape.at(-1)!.seq);
            expect(stored.signals).toEqual(signalsAsOf(tape, stored.seq));
          }
          const final = (await s.app.store.readState(podId))!;
          expect(final.seq).toBe(inputs.length);
          agentsSeen += Object.keys(final.signals.agents).length;
        },
      ),
      { numRuns: 6 },
    );
    expect(agentsSeen).toBeGreaterThan(0);
  }, 120_000);
});

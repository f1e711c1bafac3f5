// Concurrent asks for one window share its fold, on SQLite and PostgreSQL: two asks whose ends
// differ but lie after every event read the tape once and get the same signals; asks whose ends
// fall between events fold apart, each counting its own; both equal signalsBetween on the tape.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TapeStore } from "../db/tape-store";
import { signalsBetween } from "../domain/signals/signals-window";
import { emptyPodState, type AppliedEvent } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { acceptHistory, asInputs, historyStep, TEAM_SETUP } from "../testing/pod-history";
import { testProviders } from "../testing/test-databases";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { windowOfTape } from "./window-of-tape";
import type { Window } from "./signals-query";
import { TEST_WRITER } from "../testing/test-writer";

const json = (v: unknown) => JSON.stringify(v);
const windowOf = (fromMs: number, toMs: number): Window => ({
  fromMs,
  toMs,
  from: new Date(fromMs).toISOString(),
  to: new Date(toMs).toISOString(),
});

describe.each(testProviders())("a window's fold shared on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let tape: AppliedEvent[];
  beforeAll(async () => {
    s = await startTestServer(provider);
    podId = (await api(s.url, "POST", "/api/v1/pods", { name: "windows", mode: "collaboration" })).body.id;
    const setup = acceptHistory(emptyPodState(), TEAM_SETUP as never, false);
    const steps = fc.sample(historyStep(6), { numRuns: 150, seed: 11 });
    const inputs = asInputs([...setup.events, ...acceptHistory(setup.state, steps, false).events]);
    for (let at = 0; at < inputs.length; at += 40)
      await s.app.append(podId, inputs.slice(at, at + 40), TEST_WRITER);
    tape = [];
    for (let after = 0; ;) {
      const page = await s.app.store.readEvents(podId, after, 500);
      if (!page.length) break;
      tape.push(...page.map(toAppliedEvent));
      after = page.at(-1)!.seq;
    }
  });
  afterAll(() => s?.stop());

  /** The app's store with its tape reads counted (a store of its own: its history reader is its own too). */
  const counting = () => {
    const counter = { reads: 0 };
    const store: TapeStore = Object.create(s.app.store, {
      readEvents: {
        value: (p: string, after: number, limit: number) => (
          counter.reads++,
          s.app.store.readEvents(p, after, limit)
        ),
      },
    });
    return { store, counter };
  };

  it("shares one fold between asks that end after every event, and answers as signalsBetween", async () => {
    const head = tape.at(-1)!.seq;
    const fromMs = Date.parse(tape[Math.floor(tape.length / 3)]!.receivedAt);
    const [end1, end2] = [Date.now() + 1000, Date.now() + 2000];
    const alone = counting();
    await windowOfTape(alone.store, podId, head, windowOf(fromMs, end1));
    const { store, counter } = counting();
    let folds = 0;
    const run = <T>(work: () => Promise<T>) => (folds++, work());
    const [a, b] = await Promise.all([
      windowOfTape(store, podId, head, windowOf(fromMs, end1), run),
      windowOfTape(store, podId, head, windowOf(fromMs, end2), run),
    ]);
    expect(b).toBe(a);
    expect(folds).toBe(1);
    expect(counter.reads).toBe(alone.counter.reads);
    expect(json(a)).toBe(json(signalsBetween(tape, fromMs, end1)));
    expect(json(b)).toBe(json(signalsBetween(tape, fromMs, end2)));
  });

  it("folds apart when an event was received between the two ends", async () => {
    const head = tape.at(-1)!.seq;
    const fromMs = Date.parse(tape[5]!.receivedAt);
    const cut = Date.parse(tape[Math.floor(tape.length / 2)]!.receivedAt);
    const { store } = counting();
    let folds = 0;
    const run = <T>(work: () => Promise<T>) => (folds++, work());
    const [a, b] = await Promise.all([
      windowOfTape(store, podId, head, windowOf(fromMs, cut), run),
      windowOfTape(store, podId, head, windowOf(fromMs, Date.now() + 1000), run),
    ]);
    expect(folds).toBe(2);
    expect(json(a)).toBe(json(signalsBetween(tape, fromMs, cut)));
    expect(json(b)).toBe(json(signalsBetween(tape, fromMs, Date.now() + 1000)));
    expect(json(a)).not.toBe(json(b));
  });
});

// Checkpointed history reads equal whole-tape replays, through the real write path and store, on
// SQLite and PostgreSQL: the state after random seqs (asked in random order, so later asks start
// from checkpoints earlier ones stored), and signals over random time windows. Small intervals and
// pages here so that short random tapes cross many checkpoints and pages.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TapeStore } from "../db/tape-store";
import {
  signalsBetween,
  stepWindow,
  stepWindowState,
  windowSignals,
  windowStart,
  type WindowFold,
} from "../domain/signals/signals-window";
import { emptyPodSignals } from "../domain/signals/signal-types";
import { catchUpAsync } from "../domain/state/catch-up";
import { emptyPodState, type AppliedEvent, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { acceptHistory, asInputs, historySteps, TEAM_SETUP } from "../testing/pod-history";
import { testProviders } from "../testing/test-databases";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { eventually } from "../testing/eventually";
import { CHECKPOINT_EVERY, CHECKPOINT_MIN_GAP, PodHistory, podHistory } from "./pod-history";
import { TEST_WRITER } from "../testing/test-writer";

const json = (v: unknown) => JSON.stringify(v);
const replayTo = (store: TapeStore, podId: string, seq: number) =>
  catchUpAsync(emptyPodState(), seq, (after, limit) => store.readEvents(podId, after, limit));

async function readTape(store: TapeStore, podId: string): Promise<AppliedEvent[]> {
  const out: AppliedEvent[] = [];
  for (;;) {
    const page = await store.readEvents(podId, out.length ? out.at(-1)!.seq : 0, 500);
    out.push(...page.map(toAppliedEvent));
    if (page.length < 500) return out;
  }
}

async function randomPod(s: TestServer, steps: Parameters<typeof acceptHistory>[1], sizes: number[]) {
  const setup = acceptHistory(emptyPodState(), TEAM_SETUP as never, false);
  const inputs = asInputs([...setup.events, ...acceptHistory(setup.state, steps, false).events]);
  const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "history", mode: "collaboration" }))
    .body.id;
  for (let at = 0, b = 0; at < inputs.length; b++) {
    const batch = inputs.slice(at, at + sizes[b % sizes.length]!);
    at += batch.length;
    await s.app.append(podId, batch, TEST_WRITER);
  }
  return { podId, head: inputs.length };
}

describe.each(testProviders())("history from checkpoints on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s?.stop());

  it("answers as a replay from seq 1 does, at random seqs and over random windows", async () => {
    let checkpointsRead = 0;
    await fc.assert(
      fc.asyncProperty(
        historySteps(120),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 2, max: 8 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })),
          { minLength: 1, maxLength: 3 },
        ),
        async (steps, sizes, every, at, windows) => {
          const { podId, head } = await randomPod(s, steps, sizes);
          const fold = `test-${randomUUID()}`;
          const h = new PodHistory(s.app.store, fold, every, { pageBytes: 3000 }, Infinity);
          // The head too: fast-check favours 0 for doubles, and a replay stores only what it passes.
          for (const seq of [...at.map((x) => Math.floor(x * head)), head]) {
            expect(json(await h.stateAt(podId, seq))).toBe(json(await replayTo(s.app.store, podId, seq)));
          }
          // A fresh reader (another request, another node) starts from what the first one stored.
          await h.idle();
          const again = new PodHistory(s.app.store, fold, every, { pageBytes: 3000 }, Infinity);
          const stored = await again.stored(podId);
          expect(stored).toBeLessThanOrEqual(Math.floor(head / every));
          if (stored) checkpointsRead++;
          const seq = Math.floor(at[0]! * head);
          expect(json(await again.stateAt(podId, seq))).toBe(json(await replayTo(s.app.store, podId, seq)));

          const tape = await readTape(s.app.store, podId);
          const times = tape.map((e) => Date.parse(e.receivedAt));
          for (const [a, b] of windows) {
            const [fromMs, toMs] = [
              times[Math.floor(a * (times.length - 1))]!,
              times[Math.floor(b * (times.length - 1))]! + 1,
            ];
            if (fromMs >= toMs) continue;
            const step = (f: WindowFold, row: Parameters<typeof toAppliedEvent>[0]) =>
              stepWindow(f, toAppliedEvent(row), fromMs, toMs);
            const folded = await again.foldFrom(
              podId,
              fromMs,
              head,
              { step, state: (f) => f.state },
              (state) => ({ state, counted: emptyPodSignals() }),
            );
            expect(json(windowSignals(folded))).toBe(json(signalsBetween(tape, fromMs, toMs)));
          }
        },
      ),
      { numRuns: 8 },
    );
    expect(checkpointsRead).toBeGreaterThan(0);
  }, 180_000);

  it("shares one computation between concurrent asks for the same seq", async () => {
    const { podId, head } = await randomPod(
      s,
      [{ type: "note", actor: "impl", body: { kind: "STATUS", text: "x" } }],
      [3],
    );
    let reads = 0;
    const counting: TapeStore = Object.create(s.app.store, {
      readEvents: {
        value: (p: string, after: number, limit: number) => (
          reads++,
          s.app.store.readEvents(p, after, limit)
        ),
      },
    });
    const h = new PodHistory(counting, `test-${randomUUID()}`, 1000);
    const asks = await Promise.all([h.stateAt(podId, head), h.stateAt(podId, head), h.stateAt(podId, head)]);
    expect(asks[1]).toBe(asks[0]);
    expect(asks[2]).toBe(asks[0]);
    const once = reads;
    expect(once).toBeGreaterThan(0);
    await h.stateAt(podId, head); // settled: a later ask computes again (the past is cheap to redo from a checkpoint)
    expect(reads).toBe(once * 2);
  });

  it("reads a checkpoint again from memory, and another reader from the table", async () => {
    const { podId } = await randomPod(
      s,
      Array.from({ length: 20 }, () => ({
        type: "note",
        actor: "impl",
        body: { kind: "STATUS", text: "n" },
      })),
      [6],
    );
    const fold = `test-${randomUUID()}`;
    const h = new PodHistory(s.app.store, fold, 10, {}, Infinity);
    await h.stateAt(podId, 20); // stores the checkpoints at 10 and 20
    // Asked again once settled: the replay starts from the checkpoint at 20, read and decoded once.
    const first = await h.stateAt(podId, 20);
    expect(await h.stateAt(podId, 20)).toBe(first);
    expect(await h.stateAt(podId, 20)).toBe(first);
    const other = await new PodHistory(s.app.store, fold, 10, {}, Infinity).stateAt(podId, 20);
    expect(other).not.toBe(first);
    expect(json(other)).toBe(json(await replayTo(s.app.store, podId, 20)));
  });

  it("keeps the state a read asked for decoded: the pod's next read starts from it as it is", async () => {
    const { podId } = await randomPod(
      s,
      Array.from({ length: 20 }, () => ({
        type: "note",
        actor: "impl",
        body: { kind: "STATUS", text: "n" },
      })),
      [6],
    );
    const h = new PodHistory(s.app.store, `test-${randomUUID()}`, 10, {}, Infinity);
    // As the keeper asks, one interval after another: each starts from the checkpoint the one before stored.
    const at10 = await h.stateAt(podId, 10);
    expect(await h.stateAt(podId, 10)).toBe(at10);
    const at20 = await h.stateAt(podId, 20);
    expect(json(at20)).toBe(json(await replayTo(s.app.store, podId, 20)));
    expect(await h.stateAt(podId, 20)).toBe(at20);
  });

  it("reads pages by bytes: large events come a few at a time, small ones many", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "pages", mode: "collaboration" }))
      .body.id;
    const note = (text: string) => ({
      id: randomUUID(),
      type: "note",
      actor: "admin",
      body: { kind: "STATUS", text },
    });
    await s.app.append(podId, Array.from({ length: 300 }, () => note("small")) as never, TEST_WRITER);
    await s.app.append(
      podId,
      Array.from({ length: 40 }, () => note("L".repeat(60_000))) as never,
      TEST_WRITER,
    );
    const pages: { events: number; bytes: number }[] = [];
    const pageBytes = 200_000;
    const h = new PodHistory(s.app.store, null, 1000, {
      pageBytes,
      onPage: (events, bytes) => pages.push({ events, bytes }),
    });
    expect(json(await h.stateAt(podId, 340))).toBe(json(await replayTo(s.app.store, podId, 340)));
    expect(pages.reduce((n, p) => n + p.events, 0)).toBe(340);
    // Every page of more than one event stays within its bytes; a single larger event is a page of its own.
    for (const p of pages) if (p.events > 1) expect(p.bytes).toBeLessThanOrEqual(pageBytes);
    expect(Math.max(...pages.map((p) => p.events))).toBeGreaterThan(100);
    expect(pages.slice(-5).every((p) => p.events <= 3)).toBe(true);
  });

  it("keeps checkpoints per fold: another fold's are neither read nor kept", async () => {
    const { podId, head } = await randomPod(
      s,
      Array.from({ length: 30 }, () => ({
        type: "note",
        actor: "impl",
        body: { kind: "STATUS", text: "n" },
      })),
      [7],
    );
    const old = new PodHistory(s.app.store, `test-old-${randomUUID()}`, 5, {}, Infinity);
    await old.stateAt(podId, head);
    expect(await old.stored(podId)).toBe(Math.floor(head / 5));
    const now = new PodHistory(s.app.store, `test-new-${randomUUID()}`, 5, {}, Infinity);
    expect(json(await now.stateAt(podId, head))).toBe(json(await replayTo(s.app.store, podId, head)));
    expect(await old.stored(podId)).toBe(0);
    expect(await now.stored(podId)).toBe(Math.floor(head / 5));
  });

  it("keeps checkpoints up with the tape as commits pass each interval", async () => {
    const podId: string = (await api(s.url, "POST", "/api/v1/pods", { name: "kept", mode: "collaboration" }))
      .body.id;
    const note = () => ({
      id: randomUUID(),
      type: "note",
      actor: "admin",
      body: { kind: "STATUS", text: "n" },
    });
    for (let i = 0; i < 5; i++)
      await s.app.append(
        podId,
        Array.from({ length: (2 * CHECKPOINT_EVERY + 10) / 5 }, note) as never,
        TEST_WRITER,
      );
    const h = podHistory(s.app.store);
    expect(
      await eventually(
        () => h.stored(podId),
        (n) => n >= 2,
        "two checkpoints",
      ),
    ).toBeGreaterThanOrEqual(2);
  });

  it("also checkpoints wherever folding has cost its budget, so a slow stretch is never replayed whole", async () => {
    const { podId, head } = await randomPod(
      s,
      Array.from({ length: 130 }, () => ({
        type: "note",
        actor: "impl",
        body: { kind: "STATUS", text: "n" },
      })),
      [25],
    );
    // A zero budget: every event is costly enough, so checkpoints come every CHECKPOINT_MIN_GAP events.
    const h = new PodHistory(s.app.store, `test-${randomUUID()}`, 1000, {}, 0);
    expect(json(await h.stateAt(podId, head))).toBe(json(await replayTo(s.app.store, podId, head)));
    expect(head).toBeGreaterThan(2 * CHECKPOINT_MIN_GAP);
    expect(await h.stored(podId)).toBe(Math.floor(head / CHECKPOINT_MIN_GAP));
    expect(json(await h.stateAt(podId, head - 1))).toBe(json(await replayTo(s.app.store, podId, head - 1)));

    // A window's fold costs more per event than the state's: it stores no checkpoint by its own clock.
    const w = new PodHistory(s.app.store, `test-${randomUUID()}`, 1000, {}, 0);
    const step = (f: WindowFold, row: Parameters<typeof toAppliedEvent>[0]) =>
      stepWindow(f, toAppliedEvent(row), 0, Infinity);
    const folded = await w.foldFrom(podId, 0, head, { step, state: (f) => f.state }, (state) => ({
      state,
      counted: emptyPodSignals(),
    }));
    expect(json(windowSignals(folded))).toBe(
      json(signalsBetween(await readTape(s.app.store, podId), 0, Infinity)),
    );
    expect(await w.stored(podId)).toBe(0);
  });

  it("stores no checkpoint of a fold that carries no pod's state (a window's counts in its place)", async () => {
    const { podId, head } = await randomPod(
      s,
      Array.from({ length: 40 }, () => ({
        type: "note",
        actor: "impl",
        body: { kind: "STATUS", text: "n" },
      })),
      [20],
    );
    const h = new PodHistory(s.app.store, `test-${randomUUID()}`, 10);
    const step = (st: PodState, row: Parameters<typeof toAppliedEvent>[0]) =>
      stepWindowState(st, toAppliedEvent(row), 0, Infinity);
    const folded = await h.foldFrom(podId, 0, head, { step }, windowStart);
    expect(json(folded.signals)).toBe(json(signalsBetween(await readTape(s.app.store, podId), 0, Infinity)));
    expect(head).toBeGreaterThan(20);
    expect(await h.stored(podId)).toBe(0);
  });
});

// The history figures' pods. An old pod: a 100,000-event team tape (bench/signals.ts) received
// over the last 120 days, written through the real store and appender before the server starts
// (receivedAt is the server's clock: to spread a tape over months the seeding process's clock is
// moved per batch). A lived-in pod: a 3,000-task plan, 300 tasks taken through implement →
// review → decide and 15,000 notes, posted through the API in 500-event batches.
import { randomUUID } from "node:crypto";
import { GENESIS_HASH } from "../server/domain/hash-chain";
import type { TEvent } from "../server/domain/events/event-schemas";
import { openStore } from "../server/db/open-store";
import { createAppender } from "../server/tape/append-events";
import { InProcessBus } from "../server/tape/in-process-bus";
import { post } from "./http";
import { buildPodTape } from "./signals";

const DAY = 24 * 3600_000;
const OLD_POD_DAYS = 120;
const SEED_BATCH = 200;

/** Runs `work` with `new Date()` and `Date.now()` reading `at()` (the store stamps receivedAt with them). */
async function atClock<T>(at: () => number, work: () => Promise<T>): Promise<T> {
  const RealDate = Date;
  class ClockDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length) super(...(args as [number]));
      else super(at());
    }
    static now = () => at();
  }
  globalThis.Date = ClockDate as DateConstructor;
  try {
    return await work();
  } finally {
    globalThis.Date = RealDate;
  }
}

/** The old tape is written as the server would replay it: no door, no caller to admit. */
const SEEDER = { kind: "system", name: "the bench's old pod" } as const;

/** The old pod, written into the database at `url` (no server running on it); returns its id and head. */
export async function seedOldPod(
  url: string,
  events = 100_000,
): Promise<{ podId: string; head: number; nowMs: number }> {
  const store = await openStore(url);
  try {
    const podId = randomUUID();
    await store.prisma.pod.create({
      data: {
        id: podId,
        name: "bench-old-pod",
        mode: "collaboration",
        scope: null,
        createdAt: new Date().toISOString(),
        headHash: GENESIS_HASH,
      },
    });
    const append = createAppender(store, new InProcessBus());
    const tape = buildPodTape(events).map(
      ({ seq: _s, receivedAt: _r, ...e }) => ({ ...e, id: randomUUID() }) as TEvent,
    );
    const nowMs = Date.now();
    const start = nowMs - OLD_POD_DAYS * DAY;
    const step = (OLD_POD_DAYS * DAY) / tape.length;
    for (let i = 0; i < tape.length; i += SEED_BATCH) {
      await atClock(
        () => start + i * step,
        () => append(podId, tape.slice(i, i + SEED_BATCH), SEEDER),
      );
    }
    return { podId, head: tape.length, nowMs };
  } finally {
    await store.close();
  }
}

const AGENTS = ["chair", "impl-1", "impl-2", "impl-3", "rev-1", "rev-2"];
const PLAN_TASKS = 3000;
const TAKEN = 300;
const NOTES = 15_000;
const HASH = "e".repeat(64);

/** Ordinary task text: a description and a few metadata fields, as a planning agent writes them. */
const task = (n: number) => ({
  task_id: `task_${String(n).padStart(4, "0")}`,
  description: `Implement part ${n} of the migration: move the ${n % 7 === 0 ? "billing" : "accounts"} module's queries to the new schema, keep the old API, and add tests that cover the edge cases found in review.`,
  status: "pending",
  metadata: {
    area: n % 7 === 0 ? "billing" : "accounts",
    estimate: `${(n % 5) + 1}h`,
    owner: AGENTS[1 + (n % 3)],
    ticket: `MIG-${10_000 + n}`,
    labels: ["migration", "backend"],
  },
});

/** The lived-in pod through the API at `base`; returns its id and head. */
export async function seedLivedInPod(base: string): Promise<{ podId: string; head: number }> {
  const podId = (
    JSON.parse(
      (await post(`${base}/api/v1/pods`, JSON.stringify({ name: "bench-lived-in", mode: "collaboration" })))
        .text,
    ) as { id: string }
  ).id;
  const events: object[] = [
    {
      type: "member.joined",
      actor: "admin",
      body: { memberId: "ana", kind: "human", displayName: "Ana", access: "approver" },
    },
    ...AGENTS.map((memberId) => ({
      type: "member.joined",
      actor: "admin",
      body: { memberId, kind: "agent", displayName: memberId },
    })),
    { type: "role.assigned", actor: "admin", body: { memberId: "chair", role: "chair" } },
    {
      type: "pod.scope_agreed",
      actor: "admin",
      body: { scope: "bench", successCriteria: ["done"], cadenceMinutes: 30 },
    },
    { type: "pod.started", actor: "admin", body: {} },
  ];
  for (let n = 1; n <= PLAN_TASKS; n += 500)
    events.push({
      type: "plan.imported",
      actor: "chair",
      body: { plan: { tasks: Array.from({ length: 500 }, (_, k) => task(n + k)) } },
    });
  for (let n = 1; n <= TAKEN; n++) {
    const taskId = task(n).task_id;
    const impl = AGENTS[1 + (n % 3)]!;
    const bundleId = `ev-${n}`;
    events.push(
      { type: "task.updated", actor: impl, body: { taskId, status: "in_progress" } },
      {
        type: "evidence.bundle",
        actor: impl,
        taskId,
        body: {
          bundleId,
          commands: [{ command: "npm test", exit_code: 0 }],
          artifacts: [],
          env: { commit: "c" },
          manifestHash: HASH,
        },
      },
      { type: "task.review_requested", actor: impl, body: { taskId, evidenceIds: [bundleId] } },
      { type: "review", actor: AGENTS[4 + (n % 2)], body: { taskId, verdict: "approve" } },
      {
        type: "decision",
        actor: "ana",
        body: { subject: { kind: "task", id: taskId }, verdict: "approve", rationale: "reviewed and tested" },
      },
    );
  }
  for (let i = 0; i < NOTES; i++)
    events.push({
      type: "note",
      actor: AGENTS[1 + (i % 3)],
      body: { kind: "OBSERVATION", text: `observation ${i}: the suite is green on the accounts module` },
    });
  for (let i = 0; i < events.length; i += 500) {
    const res = await post(
      `${base}/api/v1/pods/${podId}/events`,
      JSON.stringify({ events: events.slice(i, i + 500).map((e) => ({ id: randomUUID(), ...e })) }),
    );
    if (res.status !== 201)
      throw new Error(`seeding the lived-in pod: ${res.status} ${res.text.slice(0, 300)}`);
  }
  return { podId, head: events.length };
}

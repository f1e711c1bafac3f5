// Property: any body the tape accepts — arbitrary JSON in every
// place a body schema lets it through, near and beyond the bounds — can be read
// back unchanged from every reader: a page of the tape, a search, /state (now
// and as of its seq), /plan, /verify, the socket backlog, and a replay.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { io as connect } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_BOUNDS } from "../domain/events/event-bounds";
import { replay } from "../domain/state/apply-event";
import { emptyPodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import type { TapeEvent } from "../wire/events";

/** Where an arbitrary value can sit: the request, and how to find the value again in the stored body. */
type Placement = { path: string; request: (v: unknown) => unknown; find: (body: any) => unknown };
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const uid = () => randomUUID().slice(0, 8);
const placements: Record<string, () => Placement> = {
  noteBody: () => ({
    path: "/events",
    request: (v) => ({ type: "note", actor: "impl-1", body: { kind: "OBSERVATION", text: "rt", BODY: v } }),
    find: (b) => b.BODY,
  }),
  noteExtra: () => ({
    path: "/events",
    request: (v) => ({ type: "note", actor: "impl-1", body: { kind: "STATUS", text: "rt", extra: v } }),
    find: (b) => b.extra,
  }),
  taskMetadata: () => ({
    path: "/events",
    request: (v) => ({
      type: "task.added",
      actor: "impl-1",
      body: { taskId: `t-${uid()}`, description: "rt", metadata: { x: v } },
    }),
    find: (b) => b.metadata.x,
  }),
  // The value is the metadata itself when it is an object: its keys are the ones a schema parses.
  wholeMetadata: () => {
    let whole = false;
    return {
      path: "/events",
      request: (v) => (
        (whole = isRecord(v)),
        { type: "task.updated", actor: "impl-1", body: { taskId: "t-0", metadata: whole ? v : { x: v } } }
      ),
      find: (b) => (whole ? b.metadata : b.metadata.x),
    };
  },
  updateMetadata: () => ({
    path: "/events",
    request: (v) => ({ type: "task.updated", actor: "impl-1", body: { taskId: "t-0", metadata: { x: v } } }),
    find: (b) => b.metadata.x,
  }),
  planJson: () => ({
    path: "/plan",
    request: (v) => ({ tasks: [{ task_id: `p-${uid()}`, description: "rt", metadata: { x: v } }] }),
    find: (b) => b.plan.tasks[0].metadata.x,
  }),
  manifest: () => ({
    path: "/workcells",
    request: (v) => ({
      schema_version: "1",
      workcell_id: `wc-${uid()}`,
      issue: { id: "i1", title: "rt" },
      toolchain: "node",
      toolchain_config: { x: v },
      branch_name: "b",
    }),
    find: (b) => b.manifest.toolchain_config.x,
  }),
  handoffStep: () => ({
    path: "/events",
    request: (v) => ({
      type: "handoff",
      actor: "impl-1",
      body: {
        step_id: "s",
        agent_name: "impl-1",
        parts: [
          {
            type: "tool_call",
            tool_call: {
              id: "c",
              tool_name: "handoff",
              args: { destination_agent: "rev-1", reason: "rt", x: v },
            },
          },
        ],
      },
    }),
    find: (b) => b.step.parts[0].tool_call.args.x,
  }),
  commandExtra: () => ({
    path: "/events",
    request: (v) => ({
      type: "evidence.bundle",
      actor: "impl-1",
      body: {
        bundleId: `ev-${uid()}`,
        commands: [{ command: "npm test", exit_code: 0, x: v }],
        artifacts: [],
        env: { commit: "c" },
        manifestHash: "a".repeat(64),
      },
    }),
    find: (b) => b.commands[0].x,
  }),
};

const leaf = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" });
/** A chain of objects and arrays around a leaf, from well inside the depth bound to beyond it. */
const deep = fc
  .tuple(
    fc.integer({ min: EVENT_BOUNDS.maxDepth - 8, max: EVENT_BOUNDS.maxDepth + 4 }),
    fc.jsonValue({ maxDepth: 1 }),
    fc.boolean(),
  )
  .map(([levels, inner, arrays]) => {
    let v: unknown = inner;
    for (let i = 0; i < levels; i++) v = arrays && i % 2 ? [v] : { k: v };
    return v;
  });
/** A string around the size bound. */
const big = fc
  .integer({ min: EVENT_BOUNDS.maxBytes - 400, max: EVENT_BOUNDS.maxBytes + 100 })
  .map((n) => "é".repeat(Math.floor(n / 2)));
/** Keys that are special to JS objects, as JSON.parse makes them: own properties. */
const tricky = fc
  .array(
    fc.tuple(
      fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf", ""),
      leaf,
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map(
    (entries) =>
      JSON.parse(
        `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",")}}`,
      ) as unknown,
  );
const value = fc.oneof(
  { arbitrary: leaf, weight: 8 },
  { arbitrary: deep, weight: 3 },
  { arbitrary: tricky, weight: 3 },
  { arbitrary: big, weight: 1 },
);

describe.each(testProviders())("accepted bodies round-trip through every reader on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let auth: { token: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "roundtrip", { "impl-1": "implementer", "rev-1": "reviewer" });
    podId = pod.podId;
    auth = { token: pod.tokens["impl-1"]! };
    expect(
      (
        await post("/events", {
          type: "task.added",
          actor: "impl-1",
          body: { taskId: "t-0", description: "updated by the property" },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => s.stop());

  const post = (path: string, body: unknown) =>
    api(s.url, "POST", `/api/v1/pods/${podId}${path}`, body, auth);
  const get = (path: string) => api(s.url, "GET", `/api/v1/pods/${podId}${path}`, undefined, auth);
  const head = async () => (await get("")).body.eventCount as number;

  it("whatever is accepted reads back unchanged; whatever is refused is a 4xx that stores nothing", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(placements)), value, async (where, v) => {
        const place = placements[where]!();
        const before = await head();
        const r = await post(place.path, place.request(v));
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(500);
        if (r.status >= 300) {
          expect(r.status).toBeGreaterThanOrEqual(400);
          expect(r.body.error.code).toBeTypeOf("string");
          expect(await head()).toBe(before);
        } else {
          accepted++;
          const seq: number = (r.body.events ?? [r.body.event])[0].seq;
          const [stored] = (await get(`/events?after=${seq - 1}&limit=1`)).body.events as TapeEvent[];
          expect(place.find(stored!.body)).toEqual(JSON.parse(JSON.stringify(v)));
          const found = (await get(`/events?type=${stored!.type}&before=${seq + 1}&limit=1`)).body
            .events as TapeEvent[];
          expect(found[0]).toEqual(stored);
          expect((await get(`/state?atSeq=${seq}`)).status).toBe(200);
        }
        for (const path of ["/state", "/plan", "/events?q=rt&limit=5"])
          expect((await get(path)).status, path).toBe(200);
      }),
      { numRuns: 40 },
    );
    expect(accepted).toBeGreaterThan(0);
    expect((await get("/verify")).body).toMatchObject({ ok: true });
  });

  it("afterwards the socket backlog equals the tape, and replaying the tape gives the stored state", async () => {
    const tape: TapeEvent[] = [];
    for (let after = 0; ;) {
      const page = (await get(`/events?after=${after}&limit=1000`)).body as {
        events: TapeEvent[];
        nextAfter: number;
      };
      if (!page.events.length) break;
      tape.push(...page.events);
      after = page.nextAfter;
    }
    const socket = connect(s.url, { transports: ["websocket"], forceNew: true, auth: auth });
    const backlog: TapeEvent[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`backlog: ${backlog.length} of ${tape.length}`)),
        20_000,
      );
      socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: 0 }));
      socket.on("tape:events", (f, ack) => {
        ack?.(); // taken: the server sends the next backlog page only now
        backlog.push(...(f.events as TapeEvent[]));
      });
      socket.on("tape:live", () => (clearTimeout(timer), resolve()));
    });
    socket.close();
    expect(backlog).toEqual(tape);
    const rows = tape.map((e) => ({
      ...e,
      body: JSON.stringify(e.body),
      meta: e.meta ? JSON.stringify(e.meta) : null,
    }));
    const stored = await s.app.store.readStoredState(podId);
    expect(JSON.parse(stored!.state)).toEqual(replay(rows.map(toAppliedEvent), emptyPodState()));
  });
});

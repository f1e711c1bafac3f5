// Fuzz: valid requests of every event type and file-format
// document, broken structurally (envelope and body alike) and byte by byte,
// plus broken paths. Every answer is 2xx or 4xx — never 5xx, never a dropped
// connection without one — and afterwards the tape still verifies and reads.
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZEventInput, type EventType } from "../wire/events";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { applyByteOps, applyOps, byteOps, jsonOps } from "../testing/mutations";
import { SAMPLE_BODIES, SEED_DOCUMENTS } from "../testing/sample-events";

const TYPES = Object.keys(SAMPLE_BODIES) as EventType[];
const sample = (type: EventType) => ({ type, ...structuredClone(SAMPLE_BODIES[type]) });
/** The envelope's optional fields, so mutations reach them too. */
const envelope = fc.record(
  {
    id: fc.uuid(),
    role: fc.constantFrom("implementer", "reviewer", "chair", "spectator"),
    ts: fc
      .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    taskId: fc.constantFrom("t1", "task_001"),
    runId: fc.constant("r1"),
    workItemId: fc.constant("w1"),
    mood: fc.constant("CURIOUS"),
    refs: fc.array(fc.constantFrom("ev-1", "t1"), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

describe.each(testProviders())("fuzzing the agent API on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let closable: string;
  let agent: string;
  const errors = vi.spyOn(console, "error");
  const statuses = new Map<number, number>();
  beforeAll(async () => {
    s = await startTestServer(provider);
    const team = { "impl-1": "implementer", "rev-1": "reviewer", "chair-1": "chair" };
    const pod = await agentPod(s.url, "fuzz", team);
    podId = pod.podId;
    agent = pod.tokens["impl-1"]!;
    closable = (await agentPod(s.url, "fuzz-closable", team)).podId;
    for (const type of TYPES) expect(ZEventInput.safeParse(sample(type)).error?.issues, type).toBeUndefined();
    // Every valid sample once, in order, so mutations meet tasks, runs and jobs that exist.
    for (const type of TYPES)
      expect(await expectAnswered("POST", eventsPath(type), JSON.stringify(sample(type)))).toBeLessThan(500);
    errors.mockClear();
    statuses.clear();
  });
  afterAll(() => s.stop());

  /** Sends a request; the answer must be 2xx/4xx, with the error envelope when it is an error. */
  async function expectAnswered(
    method: string,
    path: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ) {
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TEST_ADMIN_TOKEN}`,
        "content-type": "application/json",
        ...headers,
      },
      body: typeof body === "string" ? body : new Uint8Array(body),
    });
    const text = await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    expect(
      res.status,
      `${method} ${path} ${String(body).slice(0, 300)} → ${text.slice(0, 300)}`,
    ).toBeLessThan(500);
    // Better Auth answers its own refusals in its own shape; everything of ours uses the envelope.
    if (res.status >= 400 && !path.startsWith("/api/auth/"))
      expect(JSON.parse(text).error.code, text).toBeTypeOf("string");
    return res.status;
  }
  // Pausing or closing stops a tape taking most events: those go to a pod of their own.
  const eventsPath = (type: string) =>
    `/api/v1/pods/${type === "pod.closed" || type === "pod.paused" ? closable : podId}/events`;

  it("mutated events of every type, alone or in batches, as the admin or as an agent", async () => {
    // Some unmutated, so the batch around a broken event is valid and the pod's rules get their say.
    const one = fc
      .tuple(
        fc.constantFrom(...TYPES),
        fc.oneof(fc.constant({}), envelope),
        fc.oneof(jsonOps, fc.constant([])),
      )
      .map(([type, extra, ops]) => ({ type, event: applyOps({ ...extra, ...sample(type) }, ops) }));
    await fc.assert(
      fc.asyncProperty(
        fc.array(one, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        async (events, batch, asAgent) => {
          const body = batch ? { events: events.map((e) => e.event) } : events[0]!.event;
          await expectAnswered(
            "POST",
            eventsPath(events[0]!.type),
            JSON.stringify(body),
            asAgent ? { authorization: `Bearer ${agent}` } : {},
          );
        },
      ),
      { numRuns: 300 },
    );
    // The fuzz reached both sides: some requests were stored, many refused.
    expect(statuses.get(201) ?? 0).toBeGreaterThan(3);
    expect([...statuses.keys()].filter((k) => k >= 400).length).toBeGreaterThan(2);
  });

  it("mutated file-format documents on their endpoints", async () => {
    const docs = [
      { path: () => `/api/v1/pods/${podId}/plan`, doc: SEED_DOCUMENTS.plan },
      { path: () => `/api/v1/pods/${podId}/workcells`, doc: SEED_DOCUMENTS.manifest },
      {
        path: () => `/api/v1/pods/${podId}/workcells/${SEED_DOCUMENTS.proof.workcell_id}/proof`,
        doc: SEED_DOCUMENTS.proof,
      },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...docs), jsonOps, async ({ path, doc }, ops) => {
        await expectAnswered("POST", path(), JSON.stringify(applyOps(doc, ops)), {
          "x-podwatch-actor": "impl-1",
        });
      }),
      { numRuns: 80 },
    );
  });

  it("raw byte mutations of valid requests, the sign-in included", async () => {
    const valid = [
      ...TYPES.map((type) => ({ path: () => eventsPath(type), text: JSON.stringify(sample(type)) })),
      {
        path: () => eventsPath("note"),
        text: JSON.stringify({ events: [sample("note"), sample("checkpoint")] }),
      },
      { path: () => `/api/v1/pods/${podId}/plan`, text: JSON.stringify(SEED_DOCUMENTS.plan) },
      {
        path: () => "/api/v1/pods",
        text: JSON.stringify({ name: "fuzzed", mode: "collaboration", scope: "s" }),
      },
      {
        path: () => `/api/v1/pods/${podId}/members`,
        text: JSON.stringify({ memberId: "fuzz-1", kind: "agent", displayName: "F", roles: ["researcher"] }),
      },
      {
        path: () => `/api/v1/pods/${podId}/members/impl-1/tokens`,
        text: JSON.stringify({ label: "fuzzed" }),
      },
      { path: () => `/api/v1/pods/${podId}/share-links`, text: JSON.stringify({ expiresInHours: 2 }) },
      {
        path: () => "/api/v1/users",
        text: JSON.stringify({ email: "fuzz@example.com", name: "F", password: "a long enough password" }),
      },
      {
        path: () => "/api/auth/sign-in/email",
        text: JSON.stringify({ email: "nobody@example.com", password: "not the password" }),
      },
    ];
    const contentType = fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...valid), byteOps, contentType, async ({ path, text }, ops, type) => {
        await expectAnswered("POST", path(), applyByteOps(Buffer.from(text), ops), {
          "content-type": type,
          origin: s.url,
        });
      }),
      { numRuns: 250 },
    );
  });

  it("broken paths, sent byte for byte", async () => {
    const piece = fc.constantFrom(
      "%",
      "%zz",
      "%E0%A4%A",
      "%00",
      "%2F",
      "..",
      "//",
      "%C0%AE",
      "é",
      "\u0000",
      "?",
      "#",
      ";",
      "%25",
      "~",
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          `/api/v1/pods/${podId}/events`,
          `/api/v1/pods/${podId}/state`,
          "/share/abc",
          "/pods/x",
          "/api/auth/get-session",
        ),
        fc.nat(),
        piece,
        async (path, at, p) => {
          const i = at % path.length;
          const target = Buffer.from(path.slice(0, i) + p + path.slice(i + 1), "latin1");
          const head = Buffer.from(`GET `, "latin1");
          const rest = Buffer.from(
            ` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`,
          );
          const answer = await new Promise<string>((resolve, reject) => {
            const socket = connect(Number(new URL(s.url).port), "127.0.0.1", () =>
              socket.write(Buffer.concat([head, target, rest])),
            );
            let text = "";
            socket.setTimeout(5000, () => reject(new Error(`no answer for ${target}`)));
            socket
              .on("data", (d) => (text += d))
              .on("end", () => resolve(text))
              .on("error", reject);
          });
          expect(answer, String(target)).toMatch(/^HTTP\/1\.1 [234]\d\d /);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("afterwards the tapes verify and read, and nothing failed inside the server", async () => {
    for (const id of [podId, closable]) {
      expect((await api(s.url, "GET", `/api/v1/pods/${id}/verify`)).body).toMatchObject({ ok: true });
      for (const path of ["/events?after=0&limit=1000", "/events?q=a", "/state", "/state?atSeq=5", "/plan"]) {
        expect((await api(s.url, "GET", `/api/v1/pods/${id}${path}`)).status, path).toBe(200);
      }
    }
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBeGreaterThan(10);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([]);
  });
});

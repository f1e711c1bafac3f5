// /verify on a long tape must not freeze the server for everyone else: other
// requests interleave with it, and a caller gets one verification at a time.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const EVENTS = 40_000;
const BATCH = 1000;

const note = (i: number) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text: `event ${i} ${"x".repeat(80)}` },
});

describe.each(testProviders())("verify under load on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let tokens: Record<string, string>;
  let length: number;
  beforeAll(async () => {
    s = await startTestServer(provider);
    ({ podId, tokens } = await agentPod(s.url, "long", {
      impl: "implementer",
      a: "reviewer",
      b: "reviewer",
      c: "reviewer",
      d: "reviewer",
    }));
    for (let i = 0; i < EVENTS; i += BATCH) {
      const r = await api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        { events: Array.from({ length: BATCH }, (_, k) => note(i + k)) },
        { token: tokens.impl! },
      );
      expect(r.status).toBe(201);
    }
    length = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    expect(length).toBeGreaterThan(EVENTS);
  }, 300_000);
  afterAll(() => s?.stop());

  it("keeps /healthz responsive while several callers verify a long tape", async () => {
    const callers = ["a", "b", "c", "d"].map((m) => ({ token: tokens[m]! }));
    let verifying = true;
    let worst = 0;
    const probe = (async () => {
      while (verifying) {
        const t0 = performance.now();
        expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
        worst = Math.max(worst, performance.now() - t0);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // Full walks: the worst case, every caller re-hashing every event.
    const results = await Promise.all(
      callers.map((auth) => api(s.url, "GET", `/api/v1/pods/${podId}/verify?full=1`, undefined, auth)),
    );
    verifying = false;
    await probe;
    for (const r of results) expect(r.body).toEqual({ ok: true, checked: length });
    console.log(`worst /healthz latency while verifying: ${worst.toFixed(0)} ms`);
    // Generous: before the fix the walks blocked the event loop for seconds.
    expect(worst).toBeLessThan(500);
  }, 120_000);

  it("allows one verification in flight per caller (429 with Retry-After for the second)", async () => {
    const auth = { token: tokens.a! };
    const [first, second] = await Promise.all([
      api(s.url, "GET", `/api/v1/pods/${podId}/verify?full=1`, undefined, auth),
      api(s.url, "GET", `/api/v1/pods/${podId}/verify?full=1`, undefined, auth),
    ]);
    const statuses = [first.status, second.status].sort();
    expect(statuses).toEqual([200, 429]);
    const refused = first.status === 429 ? first : second;
    expect(refused.body.error.code).toBe("verification_in_progress");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Once it is done, the same caller may verify again.
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/verify`, undefined, auth)).status).toBe(200);
  }, 120_000);
});

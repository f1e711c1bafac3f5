// A page of GET …/events is bounded by bytes, not only by count: a thousand events of up to 1 MiB
// each made one answer of a gigabyte, built whole in the server's memory. A page cut short ends at
// its nextAfter, and a reader following nextAfter still gets every event, in order, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { EVENTS_PAGE_BYTES } from "./read-events";

const LARGE_NOTES = 12;
const NOTE_CHARS = 900 * 1024;

describe.each(testProviders())("pages of the tape by bytes on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let auth: { token: string };
  beforeAll(async () => {
    s = await startTestServer(provider);
    const pod = await agentPod(s.url, "page-bytes", { "impl-1": "implementer" });
    podId = pod.podId;
    auth = { token: pod.tokens["impl-1"]! };
    for (let i = 0; i < LARGE_NOTES; i++) {
      const body = { kind: "OBSERVATION", BODY: `${i}:${"x".repeat(NOTE_CHARS)}` };
      const r = await api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        { type: "note", actor: "impl-1", body },
        auth,
      );
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(201);
    }
  }, 120_000);
  afterAll(() => s.stop());

  const page = (after: number) =>
    api(s.url, "GET", `/api/v1/pods/${podId}/events?after=${after}&limit=1000`, undefined, auth);

  it("cuts a page of large events at about EVENTS_PAGE_BYTES, and nextAfter leads through the rest", async () => {
    const first = await page(0);
    expect(first.status).toBe(200);
    expect(JSON.stringify(first.body).length).toBeLessThan(EVENTS_PAGE_BYTES + 1024 * 1024);
    const seqs: number[] = [];
    let after = 0;
    for (let reads = 0; reads < 20; reads++) {
      const r = await page(after);
      const events = r.body.events as { seq: number }[];
      if (!events.length) break;
      expect(JSON.stringify(r.body).length).toBeLessThan(EVENTS_PAGE_BYTES + 1024 * 1024);
      seqs.push(...events.map((e) => e.seq));
      expect(r.body.nextAfter).toBe(events.at(-1)!.seq);
      after = r.body.nextAfter as number;
    }
    const head = (await api(s.url, "GET", `/api/v1/pods/${podId}`, undefined, auth)).body
      .eventCount as number;
    expect(seqs).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    expect(seqs.length).toBeGreaterThan(LARGE_NOTES);
  }, 120_000);

  it("cuts a search's page too, and nextBefore leads through the rest, newest first", async () => {
    const seqs: number[] = [];
    let before: number | null = null;
    for (let reads = 0; reads < 20; reads++) {
      const from: string = before === null ? "" : `&before=${before}`;
      const r = await api(
        s.url,
        "GET",
        `/api/v1/pods/${podId}/events?type=note&limit=1000${from}`,
        undefined,
        auth,
      );
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body).length).toBeLessThan(EVENTS_PAGE_BYTES + 1024 * 1024);
      seqs.push(...(r.body.events as { seq: number }[]).map((e) => e.seq));
      before = r.body.nextBefore as number | null;
      if (before === null) break;
    }
    expect(seqs.length).toBe(LARGE_NOTES);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  }, 120_000);

  it("a page of small events is still as long as asked", async () => {
    const r = await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=2`, undefined, auth);
    expect((r.body.events as unknown[]).length).toBe(2);
  });
});

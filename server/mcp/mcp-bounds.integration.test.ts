// Remote MCP answers bounded in bytes, driven by the MCP SDK's own Streamable HTTP client: a
// tape far larger than one answer is read in pages whose cursor returns every event once, in
// order; a plan larger than one answer likewise. And the messages sessions keep for resumption
// stay within their bounds per session and per pod, oversized ones included.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../../agent/mcp/bounded-answers";
import { agentPod, api, startServerOn, startTestServer, type TestServer } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import type { RunningServer } from "../start-server";

type ToolReply = { content: { type: string; text: string }[]; isError?: boolean };

async function open(base: string, token: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "mcp-bounds-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}
const connect = async (base: string, token: string) => (await open(base, token)).client;
/** A tool's answer text, checked against the bound, and parsed. */
async function page(client: Client, name: string, args: Record<string, unknown>) {
  const r = (await client.callTool({ name, arguments: args })) as ToolReply;
  const text = r.content[0]!.text;
  expect(r.isError, text.slice(0, 300)).toBeFalsy();
  expect(Buffer.byteLength(text, "utf8")).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
  return JSON.parse(text);
}

const PAD = 50_000;
const EVENTS = 30; // about 1.5 MB: the bound several times over
/** Events of about PAD bytes each, as the agent `actor`; multi-byte characters, so bytes (not characters) are bounded. */
async function bigNotes(base: string, podId: string, actor: string, count: number) {
  const note = (i: number) => ({
    id: randomUUID(),
    type: "note",
    actor,
    body: { kind: "STATUS", text: `big ${i}`, pad: "é".repeat(PAD / 2) },
  });
  const acks = await api(base, "POST", `/api/v1/pods/${podId}/events`, {
    events: Array.from({ length: count }, (_, i) => note(i)),
  });
  expect(acks.status, JSON.stringify(acks.body).slice(0, 300)).toBe(201);
}

describe.each(testProviders())("remote MCP answers are bounded in bytes on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let tokens: Record<string, string>;
  let seqs: number[];

  beforeAll(async () => {
    s = await startTestServer(provider);
    ({ podId, tokens } = await agentPod(s.url, "mcp-bounds", { coder: "implementer" }));
    await bigNotes(s.url, podId, "coder", EVENTS);
    // One event larger than any answer (its body near the 1 MiB bound).
    const huge = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "note",
      actor: "coder",
      body: { kind: "STATUS", text: "huge", pad: "é".repeat(400_000) },
    });
    expect(huge.status).toBe(201);
    await bigNotes(s.url, podId, "coder", 3);
    const all = await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`);
    seqs = (all.body.events as { seq: number }[]).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(EVENTS);
  });
  afterAll(() => s?.stop());

  it("read_tape answers at most the bound per call; paging with nextAfter returns every event once, in order", async () => {
    const client = await connect(s.url, tokens.coder!);
    try {
      const read: number[] = [];
      const omitted: { bytes: number; note: string }[] = [];
      let after = 0;
      let calls = 0;
      for (;;) {
        const p = await page(client, "read_tape", { after, limit: 500 });
        calls++;
        const events = p.events as { seq: number; bodyOmitted?: { bytes: number; note: string } }[];
        read.push(...events.map((e) => e.seq));
        omitted.push(...events.flatMap((e) => (e.bodyOmitted ? [e.bodyOmitted] : [])));
        if (!p.more) break;
        expect(p.note).toContain(`after=${p.nextAfter}`);
        expect(p.nextAfter).toBe(read.at(-1));
        after = p.nextAfter;
        expect(calls).toBeLessThan(50);
      }
      expect(read).toEqual(seqs);
      // The event too large for any answer came once, in its turn, without its body, saying where it is.
      expect(omitted).toEqual([
        {
          bytes: expect.any(Number),
          note: expect.stringMatching(/^larger than one read_tape answer: GET \/api/),
        },
      ]);
      expect(omitted[0]!.bytes).toBeGreaterThan(MAX_ANSWER_BYTES);
      expect(calls).toBeGreaterThanOrEqual(Math.ceil((EVENTS * PAD) / MAX_ANSWER_BYTES));
      // `limit` still counts events, and says there are more when the tape goes on.
      const two = await page(client, "read_tape", { after: 0, limit: 2 });
      expect([two.events.length, two.more, two.nextAfter]).toEqual([2, true, seqs[1]]);
      const end = await page(client, "read_tape", { after: seqs.at(-1), limit: 5 });
      expect([end.events, end.more, end.nextAfter]).toEqual([[], false, seqs.at(-1)]);
    } finally {
      await client.close();
    }
  });

  it("plan_read pages a plan larger than the bound by task index", async () => {
    // A task's metadata is at most 8 KiB: 80 of them are the bound twice over.
    const tasks = Array.from({ length: 80 }, (_, i) => ({
      task_id: `t${i}`,
      description: `task ${i}`,
      metadata: { pad: "x".repeat(8000) },
    }));
    const imported = await api(s.url, "POST", `/api/v1/pods/${podId}/plan`, { tasks });
    expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(201);
    const client = await connect(s.url, tokens.coder!);
    try {
      const ids: string[] = [];
      let from = 0;
      for (let calls = 0; calls < 20; calls++) {
        const p = await page(client, "plan_read", { from });
        ids.push(...(p.tasks as { task_id: string }[]).map((t) => t.task_id));
        if (!p.more) break;
        from = p.next_from;
      }
      expect(ids).toEqual(tasks.map((t) => t.task_id));
      expect(from).toBeGreaterThan(MAX_ANSWER_BYTES / 8192 - 1);
    } finally {
      await client.close();
    }
  });
});

describe("remote MCP sessions keep bounded memory for resumption", () => {
  const KiB = 1024;
  const bounds = {
    eventBytesPerSession: 128 * KiB,
    eventBytesPerPod: 256 * KiB,
    eventBytesTotal: 1024 * KiB,
  };
  let db: TestDatabase;
  let server: RunningServer;
  let podId: string;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServerOn(db, {}, { mcp: { perToken: 16, callsPerSession: 2, ...bounds } });
    ({ podId, tokens } = await agentPod(server.url, "mcp-memory", { coder: "implementer" }));
    await bigNotes(server.url, podId, "coder", 10);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("many sessions each sent answers past their bound: each session, and the pod, keep within theirs", async () => {
    const tokens_ = (await api(server.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as {
      id: string;
      memberId: string;
    }[];
    const owner = {
      tokenId: tokens_.find((t) => t.memberId === "coder")!.id,
      podId,
      memberId: "coder",
      secret: tokens.coder!,
    };
    const opened = [];
    for (let i = 0; i < 6; i++) {
      const c = await open(server.url, tokens.coder!);
      opened.push(c);
      // Three answers of one large event each (past the session's bound together), then one answer
      // at the tools' own bound (past the session's bound alone).
      for (const after of [0, 1, 2]) await page(c.client, "read_tape", { after, limit: 1 });
      await page(c.client, "read_tape", { after: 0, limit: 500 });
    }
    const sessions = opened.map((c) => server.mcp.sessions.find(c.transport.sessionId!, owner)!);
    for (const session of sessions)
      expect(session.events.size.bytes).toBeLessThanOrEqual(bounds.eventBytesPerSession);
    const inPod = sessions.reduce((sum, x) => sum + x.events.size.bytes, 0);
    expect(inPod).toBeLessThanOrEqual(bounds.eventBytesPerPod);
    expect(server.mcp.sessions.eventBudgets.podBytes(podId)).toBe(inPod);
    expect(server.mcp.sessions.eventBudgets.total.bytes).toBe(inPod);

    // The first session's early answers were dropped: resuming from before them is refused, and says why.
    const resumed = await fetch(`${server.url}/mcp`, {
      headers: {
        accept: "text/event-stream",
        authorization: `Bearer ${tokens.coder}`,
        "mcp-session-id": opened[0]!.transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
        "last-event-id": "1",
      },
    });
    expect([resumed.status, (await resumed.json()).error.code]).toEqual([400, "events_dropped"]);

    // Sessions that end give their share back.
    for (const c of opened) await c.transport.terminateSession();
    expect(server.mcp.sessions.eventBudgets.podBytes(podId)).toBe(0);
    expect(server.mcp.sessions.eventBudgets.total.bytes).toBe(0);
    for (const c of opened) await c.client.close();
  });

  it("a session runs a bounded number of calls at once: past it 429, and a cancellation still gets through", async () => {
    const { client, transport } = await open(server.url, tokens.coder!);
    const ask = (question: string) =>
      client
        .callTool({ name: "escalate", arguments: { question, wait: true, timeout_seconds: 30 } })
        .catch((e) => e);
    const waits = [ask("First?"), ask("Second?")];
    const asked = async () =>
      (
        (await api(server.url, "GET", `/api/v1/pods/${podId}/state`)).body.escalations as {
          question: string;
        }[]
      )
        .map((e) => e.question)
        .filter((q) => q === "First?" || q === "Second?").length;
    await expect.poll(asked, { timeout: 20_000 }).toBe(2);
    const headers = {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      authorization: `Bearer ${tokens.coder}`,
      "mcp-session-id": transport.sessionId!,
      "mcp-protocol-version": "2025-06-18",
    };
    const post = (body: unknown) =>
      fetch(`${server.url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
    const third = await post({ jsonrpc: "2.0", id: 99, method: "tools/list" });
    expect([third.status, (await third.json()).error.code]).toEqual([429, "too_many_calls"]);
    const cancel = await post({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 99, reason: "never mind" },
    });
    expect(cancel.status).toBe(202);
    await transport.terminateSession();
    await client.close();
    await Promise.all(waits);
  });

  it("each request of a batch counts towards the calls a session runs at once", async () => {
    const { client, transport } = await open(server.url, tokens.coder!);
    const headers = {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      authorization: `Bearer ${tokens.coder}`,
      "mcp-session-id": transport.sessionId!,
      "mcp-protocol-version": "2025-06-18",
    };
    const batch = async (ids: number[], extra: unknown[] = []) => {
      const body = [...ids.map((id) => ({ jsonrpc: "2.0", id, method: "tools/list" })), ...extra];
      const r = await fetch(`${server.url}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
      const text = await r.text();
      return { status: r.status, code: r.status === 429 ? JSON.parse(text).error.code : undefined, text };
    };
    // Three requests in one POST are three calls, past the session's 2.
    expect(await batch([1, 2, 3])).toMatchObject({ status: 429, code: "too_many_calls" });
    const two = await batch([4, 5]);
    expect(two.status).toBe(200);
    for (const id of [4, 5]) expect(two.text).toContain(`"id":${id}`);
    // Both were given back when it ended.
    expect((await batch([6, 7])).status).toBe(200);

    const wait = client
      .callTool({ name: "escalate", arguments: { question: "Batched?", wait: true, timeout_seconds: 30 } })
      .catch((e) => e);
    const asked = async () =>
      (
        (await api(server.url, "GET", `/api/v1/pods/${podId}/state`)).body.escalations as {
          question: string;
        }[]
      ).filter((e) => e.question === "Batched?").length;
    await expect.poll(asked, { timeout: 20_000 }).toBe(1);
    // One call under way: a batch of two requests is one too many; one request and a notification fit.
    expect(await batch([8, 9])).toMatchObject({ status: 429, code: "too_many_calls" });
    const cancel = {
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 8, reason: "no" },
    };
    expect((await batch([10], [cancel])).status).toBe(200);
    await transport.terminateSession();
    await client.close();
    await wait;
  });
});

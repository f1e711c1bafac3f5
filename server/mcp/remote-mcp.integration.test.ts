// Remote MCP at /mcp, driven by the MCP SDK's own Streamable HTTP client
// against a real server: the tools, a task to review, a wait for a human's
// answer, refused tokens, sessions owned by their token, resumption with
// Last-Event-ID, DELETE, and the bounds on sessions.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startServerOn, startTestServer, type TestServer } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import type { RunningServer } from "../start-server";

type ToolReply = { content: { type: string; text: string }[]; isError?: boolean };
const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const MCP_ACCEPT = "application/json, text/event-stream";

async function connect(base: string, token: string, sessionId?: string) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
    sessionId,
  });
  const client = new Client({ name: "remote-mcp-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}
const value = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const r = (await client.callTool({ name, arguments: args })) as ToolReply;
  expect(r.isError, r.content[0]?.text).toBeFalsy();
  return JSON.parse(r.content[0]!.text);
};
/** A raw request to /mcp, as a client we do not write would send it. */
const raw = (base: string, method: string, headers: Record<string, string>, body?: unknown) =>
  fetch(`${base}/mcp`, {
    method,
    headers: { accept: MCP_ACCEPT, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe.each(testProviders())("remote MCP over Streamable HTTP on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let tokens: Record<string, string>;
  const tokenIdOf = async (memberId: string) =>
    (
      (await api(s.url, "GET", `/api/v1/pods/${podId}/tokens`)).body.tokens as {
        id: string;
        memberId: string;
      }[]
    ).find((t) => t.memberId === memberId)!.id;
  const answerAsAnn = (escalationId: string, answer: string) =>
    api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "escalation.answered",
      actor: "ann@example.com",
      body: { escalationId, answer },
    });
  const asked = async (question: string) =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body.escalations.find(
      (e: { question: string }) => e.question === question,
    );

  beforeAll(async () => {
    s = await startTestServer(provider);
    ({ podId, tokens } = await agentPod(s.url, "remote-mcp", {
      coder: "implementer",
      tester: "reviewer",
      doomed: "implementer",
    }));
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "ann@example.com",
      kind: "human",
      displayName: "Ann",
      roles: ["approver"],
    });
  });
  afterAll(() => s?.stop());

  it("lists the same tools as podwatch mcp, but no submit_evidence (it reads local folders)", async () => {
    const { client } = await connect(s.url, tokens.coder!);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(names).toEqual([
        "checkpoint",
        "escalate",
        "handoff",
        "note",
        "plan_add_task",
        "plan_read",
        "plan_update_task",
        "read_tape",
        "request_review",
        "submit_proof",
        "wait_for_answer",
      ]);
    } finally {
      await client.close();
    }
  });

  it("drives a task to review as the token's member, and waits for a human's answer over /mcp", async () => {
    const { client, transport } = await connect(s.url, tokens.coder!);
    try {
      const { task_id } = await value(client, "plan_add_task", { description: "Add the export button" });
      await value(client, "plan_update_task", { task_id, status: "in_progress" });
      await value(client, "checkpoint", { completed: ["button drawn"], next: ["review"], task_id });
      await value(client, "request_review", { task_id });
      const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`)).body;
      expect(state.board.find((t: { taskId: string }) => t.taskId === task_id)).toMatchObject({
        status: "in_review",
        implementer: "coder",
      });

      const pending = value(client, "escalate", {
        question: "CSV or XLSX?",
        kind: "intent",
        options: ["CSV", "XLSX"],
        task_id,
        wait: true,
        timeout_seconds: 30,
      });
      await expect.poll(() => asked("CSV or XLSX?"), { timeout: 20_000 }).toBeTruthy();
      const { escalationId } = await asked("CSV or XLSX?");
      expect((await answerAsAnn(escalationId, "CSV")).status).toBe(201);
      expect(await pending).toEqual({
        escalation_id: escalationId,
        answered: true,
        answer: "CSV",
        by: "ann@example.com",
      });
      const tape = await value(client, "read_tape", { after: 0, limit: 100 });
      expect(
        tape.events
          .filter((e: { actor: string }) => e.actor === "coder")
          .map((e: { type: string }) => e.type),
      ).toEqual(["task.added", "task.updated", "checkpoint", "task.review_requested", "escalation"]);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await client.close();
    }
  });

  it("refuses a missing, bad, or non-agent credential on every request, with WWW-Authenticate: Bearer", async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: "Bearer pwa_not-a-real-token" },
      { authorization: "Basic abc" },
    ];
    for (const headers of refused) {
      const r = await raw(s.url, "POST", headers, INIT);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      expect(r.headers.get("www-authenticate")).toMatch(/^Bearer realm="podwatch"/);
    }
    await expect(connect(s.url, "pwa_not-a-real-token")).rejects.toMatchObject({ code: 401 });
    const admin = await raw(
      s.url,
      "POST",
      { authorization: "Bearer test-admin-token-0123456789abcdef" },
      INIT,
    );
    expect([admin.status, (await admin.json()).error.code]).toEqual([403, "agent_token_required"]);
    // A session's later requests are judged too, not only its initialize.
    const { client, transport } = await connect(s.url, tokens.coder!);
    const later = await raw(
      s.url,
      "POST",
      {
        authorization: "Bearer pwa_not-a-real-token",
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      },
      { jsonrpc: "2.0", id: 9, method: "tools/list" },
    );
    expect(later.status).toBe(401);
    await client.close();
  });

  it("a revoked token is refused and ends its session on its next use", async () => {
    const { client, transport } = await connect(s.url, tokens.doomed!);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    const sessions = s.mcp.sessions.size;
    expect(
      (await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${await tokenIdOf("doomed")}`)).status,
    ).toBe(200);
    await expect(client.listTools()).rejects.toMatchObject({ code: 401 });
    expect(s.mcp.sessions.size).toBe(sessions - 1);
    expect(
      s.mcp.sessions.find(transport.sessionId!, {
        tokenId: await tokenIdOf("doomed"),
        podId,
        memberId: "doomed",
        secret: tokens.doomed!,
      }),
    ).toBeNull();
    expect((await raw(s.url, "POST", { authorization: `Bearer ${tokens.doomed}` }, INIT)).status).toBe(401);
    await client.close().catch(() => {});
  });

  it("a session belongs to the token that opened it: another token gets 404", async () => {
    const { client, transport } = await connect(s.url, tokens.coder!);
    try {
      const theirs = {
        authorization: `Bearer ${tokens.tester}`,
        "mcp-session-id": transport.sessionId!,
        "mcp-protocol-version": "2025-06-18",
      };
      expect((await raw(s.url, "POST", theirs, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(
        404,
      );
      expect((await raw(s.url, "GET", theirs)).status).toBe(404);
      expect((await raw(s.url, "DELETE", theirs)).status).toBe(404);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0); // still the owner's
    } finally {
      await client.close();
    }
  });

  it("refuses a foreign Origin, a batch past the bound, and an oversized body at the door", async () => {
    const auth = { authorization: `Bearer ${tokens.coder}` };
    const evil = await raw(s.url, "POST", { ...auth, origin: "http://evil.example" }, INIT);
    expect([evil.status, (await evil.json()).error.code]).toEqual([403, "bad_origin"]);
    expect((await raw(s.url, "POST", { ...auth, origin: s.url }, INIT)).status).toBe(200); // our own pages' origin is fine
    const batch = Array.from({ length: 17 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "ping" }));
    const many = await raw(s.url, "POST", auth, batch);
    expect([many.status, (await many.json()).error.code]).toEqual([400, "bad_batch"]);
    const big = await raw(s.url, "POST", auth, {
      ...INIT,
      params: { ...INIT.params, pad: "x".repeat(1024 * 1024) },
    });
    expect(big.status).toBe(413);
    expect((await raw(s.url, "PUT", auth, INIT)).status).toBe(405);
  });

  it("resumes a dropped stream with Last-Event-ID and gets the answer that came meanwhile", async () => {
    const a = await connect(s.url, tokens.coder!);
    let resumeFrom: string | undefined;
    const first = a.client
      .callTool(
        {
          name: "escalate",
          arguments: { question: "Deploy tonight?", options: ["Yes", "No"], wait: true, timeout_seconds: 30 },
        },
        undefined,
        { onresumptiontoken: (t) => (resumeFrom = t) },
      )
      .catch(() => null);
    await expect.poll(() => asked("Deploy tonight?"), { timeout: 20_000 }).toBeTruthy();
    expect(resumeFrom).toBeTruthy();
    const sessionId = a.transport.sessionId!;
    await a.transport.close(); // the connection drops mid-wait
    await first;
    const { escalationId } = await asked("Deploy tonight?");
    await answerAsAnn(escalationId, "No");

    const b = await connect(s.url, tokens.coder!, sessionId); // same session: no new initialize
    try {
      const resumed = await b.client.request(
        { method: "tools/call", params: { name: "escalate", arguments: {} } },
        CallToolResultSchema,
        { resumptionToken: resumeFrom },
      );
      expect(JSON.parse((resumed.content[0] as { text: string }).text)).toEqual({
        escalation_id: escalationId,
        answered: true,
        answer: "No",
        by: "ann@example.com",
      });
    } finally {
      await b.client.close();
    }
  });

  it("DELETE ends the session, and with it a wait in flight", async () => {
    const { client, transport } = await connect(s.url, tokens.coder!);
    const owner = { tokenId: await tokenIdOf("coder"), podId, memberId: "coder", secret: tokens.coder! };
    const session = s.mcp.sessions.find(transport.sessionId!, owner)!;
    const waiting = client
      .callTool({
        name: "escalate",
        arguments: { question: "Anyone there?", wait: true, timeout_seconds: 30 },
      })
      .catch((e: Error) => e);
    await expect.poll(() => asked("Anyone there?"), { timeout: 20_000 }).toBeTruthy();
    const id = transport.sessionId!;
    await transport.terminateSession();
    expect(session.lifetime.signal.aborted).toBe(true); // every call of the session is aborted with it
    expect(s.mcp.sessions.find(id, owner)).toBeNull();
    expect(
      (
        await raw(
          s.url,
          "POST",
          {
            authorization: `Bearer ${tokens.coder}`,
            "mcp-session-id": id,
            "mcp-protocol-version": "2025-06-18",
          },
          { jsonrpc: "2.0", id: 3, method: "tools/list" },
        )
      ).status,
    ).toBe(404);
    await client.close();
    await waiting;
  });
});

describe("remote MCP sessions are bounded", () => {
  let db: TestDatabase;
  let server: RunningServer;
  let podId: string;
  let tokens: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServerOn(db, {}, { mcp: { perToken: 2, total: 3, idleMs: 3000, sweepMs: 200 } });
    ({ podId, tokens } = await agentPod(server.url, "bounded-mcp", {
      one: "implementer",
      two: "implementer",
    }));
    expect(podId).toBeTruthy();
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("a token's third session replaces its longest-idle one; the server refuses past its total; idle sessions expire", async () => {
    const first = await connect(server.url, tokens.one!);
    const second = await connect(server.url, tokens.one!);
    const third = await connect(server.url, tokens.one!);
    await expect(first.client.listTools()).rejects.toMatchObject({ code: 404 }); // made room for the third
    expect((await third.client.listTools()).tools.length).toBeGreaterThan(0);
    await connect(server.url, tokens.two!); // the server's third session
    const full = await raw(server.url, "POST", { authorization: `Bearer ${tokens.two}` }, INIT);
    expect([full.status, (await full.json()).error.code]).toEqual([503, "too_many_sessions"]);
    await expect.poll(() => server.mcp.sessions.size, { timeout: 20_000 }).toBe(0); // nobody used them for 3 s
    await expect(second.client.listTools()).rejects.toMatchObject({ code: 404 });
    for (const c of [first, second, third]) await c.client.close().catch(() => {});
  });
});

describe("remote MCP sessions are bounded per pod", () => {
  let db: TestDatabase;
  let server: RunningServer;
  let crowded: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    server = await startServerOn(
      db,
      {},
      { mcp: { perToken: 2, perPod: 3, total: 10, idleMs: 60_000, sweepMs: 60_000 } },
    );
    ({ tokens: crowded } = await agentPod(server.url, "crowded-mcp", {
      one: "implementer",
      two: "implementer",
      three: "implementer",
    }));
    ({ tokens: other } = await agentPod(server.url, "other-mcp", { solo: "implementer" }));
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it("one pod's tokens cannot take more than the pod's share: past it 429, another pod still joins, and room comes back when a session ends", async () => {
    const [a1, a2, b1] = [
      await connect(server.url, crowded.one!),
      await connect(server.url, crowded.one!),
      await connect(server.url, crowded.two!),
    ];
    const refused = await raw(server.url, "POST", { authorization: `Bearer ${crowded.three}` }, INIT);
    expect([refused.status, (await refused.json()).error]).toEqual([
      429,
      { code: "too_many_sessions", message: expect.stringContaining("this pod's agents already have 3") },
    ]);
    // An agent at the pod's bound may still replace its own longest-idle session.
    const a3 = await connect(server.url, crowded.one!);
    await expect(a1.client.listTools()).rejects.toMatchObject({ code: 404 });
    expect((await a3.client.listTools()).tools.length).toBeGreaterThan(0);
    // The server's other pods are untouched.
    const solo = await connect(server.url, other.solo!);
    expect((await solo.client.listTools()).tools.length).toBeGreaterThan(0);
    // A session ended (DELETE) makes room in the pod.
    await b1.transport.terminateSession();
    const c1 = await connect(server.url, crowded.three!);
    expect((await c1.client.listTools()).tools.length).toBeGreaterThan(0);
    for (const c of [a1, a2, a3, b1, solo, c1]) await c.client.close().catch(() => {});
  });
});

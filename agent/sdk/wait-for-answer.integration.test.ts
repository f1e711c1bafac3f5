// PodAgent.waitForAnswer against a real server: a person's answer, and a deadline's default
// answer (by podwatch) when nobody answers in time; a deadline that only reminds is no answer;
// a tape of large events read a few at a time while it waits.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../../server/testing/test-server";
import { PodAgent } from "./pod-agent";

describe("PodAgent.waitForAnswer and deadlines", () => {
  let s: TestServer;
  let agent: PodAgent;
  let podId: string;
  beforeAll(async () => {
    s = await startTestServer("sqlite", { PODWATCH_DEADLINE_MIN_MS: "100" }); // test only: deadlines seconds ahead
    const pod = await agentPod(s.url, "sdk-deadline", { impl: "implementer" });
    podId = pod.podId;
    agent = PodAgent.fromEnv(
      Object.assign({} as NodeJS.ProcessEnv, { PODWATCH_URL: s.url, PODWATCH_TOKEN: pod.tokens["impl"]! }),
    );
  });
  afterAll(() => s?.stop());

  it("returns the deadline's default answer, marked byDeadline, when nobody answers in time", async () => {
    const at = new Date(Date.now() + 1200).toISOString();
    const esc = await agent.escalate({
      kind: "intent",
      question: "Retry the migration?",
      options: ["Yes", "No"],
      deadline: { at, then: "answer", answer: "Yes" },
    });
    const answer = await agent.waitForAnswer(esc, { timeoutSeconds: 20 });
    expect(answer).toMatchObject({
      escalationId: esc.escalationId,
      answer: "Yes",
      by: "podwatch",
      byDeadline: true,
    });
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(at));
    expect((await agent.findEscalation(esc.escalationId)).answer).toMatchObject({
      answer: "Yes",
      by: "podwatch",
      byDeadline: true,
    });
  });

  it("keeps waiting through a reminder, and returns the person's answer after it", async () => {
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "ann@example.com",
      kind: "human",
      displayName: "Ann",
      roles: ["approver"],
    });
    const esc = await agent.escalate({
      kind: "intent",
      question: "Which region?",
      deadline: { at: new Date(Date.now() + 500).toISOString(), then: "remind" },
    });
    const waiting = agent.waitForAnswer(esc, { timeoutSeconds: 20 });
    await expect
      .poll(
        async () =>
          (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events.some(
            (e: { type: string }) => e.type === "deadline.passed",
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "escalation.answered",
      actor: "ann@example.com",
      body: { escalationId: esc.escalationId, answer: "eu-west" },
    });
    expect(await waiting).toMatchObject({ answer: "eu-west", by: "ann@example.com" });
    expect((await waiting)!.byDeadline).toBeUndefined();
  });

  it("reads what follows the question a few events at a time, so a tape of large events never arrives whole", async () => {
    const esc = await agent.escalate({ kind: "intent", question: "Which font?" });
    const big = (i: number) => ({
      id: randomUUID(),
      type: "note",
      actor: "impl",
      body: { kind: "STATUS", text: `big ${i}`, pad: "x".repeat(50_000) },
    });
    const appended = await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      events: Array.from({ length: 40 }, (_, i) => big(i)),
    });
    expect(appended.status).toBe(201);
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "escalation.answered",
      actor: "ann@example.com",
      body: { escalationId: esc.escalationId, answer: "Serif" },
    });
    const read = agent.client.readEvents.bind(agent.client);
    const pages: number[] = [];
    agent.client.readEvents = async (after, o) => {
      const page = await read(after, o);
      pages.push(page.events.length);
      return page;
    };
    try {
      expect(await agent.waitForAnswer(esc, { timeoutSeconds: 20 })).toMatchObject({ answer: "Serif" });
    } finally {
      agent.client.readEvents = read;
    }
    expect(pages.length).toBeGreaterThan(1);
    expect(Math.max(...pages)).toBeLessThanOrEqual(16);
  });
});

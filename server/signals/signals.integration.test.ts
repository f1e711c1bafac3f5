// The signals routes against a real server: a pod's signals now, as of a seq and over a window;
// the export across pods as JSON and CSV (round trip); who sees what; bounds that answer 400/503.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { parseCsv } from "../testing/parse-csv";
import type { PodSignalsView, SignalsExport } from "../wire/signals";
import { SIGNALS_CSV_COLUMNS } from "./signals-csv";
import { MAX_RECOMPUTATIONS } from "./recompute-slots";

const usage = (actor: string, inputTokens: number, costUsd: number) => ({
  id: randomUUID(),
  type: "usage.reported",
  actor,
  body: { model: "claude-sonnet-4-5", inputTokens, outputTokens: 10, costUsd },
});
const toolCall = (actor: string, tool: string, phase = "started") => ({
  id: randomUUID(),
  type: "tool.call",
  actor,
  body: { toolUseId: `toolu_${randomUUID().slice(0, 8)}`, tool, phase, input: "npm test" },
});
const note = (actor: string) => ({
  id: randomUUID(),
  type: "note",
  actor,
  body: { kind: "STATUS", text: "busy" },
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(testProviders())("signals routes on %s", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  let other: { podId: string; tokens: Record<string, string> };
  let firstSeq: number;
  let between: string;
  let afterFirst: PodSignalsView;

  const post = async (p: typeof pod, member: string, events: unknown[]) => {
    const r = await api(
      s.url,
      "POST",
      `/api/v1/pods/${p.podId}/events`,
      { events },
      { token: p.tokens[member]! },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.events.at(-1).seq as number;
  };
  const signals = (query = "", podId = pod.podId) =>
    api<PodSignalsView>(s.url, "GET", `/api/v1/pods/${podId}/signals${query}`);
  const impl = (v: PodSignalsView) => v.agents.find((a) => a.agentId === "impl")!;

  beforeAll(async () => {
    s = await startTestServer(provider);
    pod = await agentPod(s.url, "signals", { impl: "implementer", rev: "reviewer" });
    other = await agentPod(s.url, "elsewhere", { impl: "implementer" });
    firstSeq = await post(pod, "impl", [
      usage("impl", 1000, 0.5),
      toolCall("impl", "Bash"),
      toolCall("impl", "Bash", "failed"),
      note("impl"),
    ]);
    afterFirst = (await signals()).body;
    await sleep(20);
    between = new Date().toISOString();
    await sleep(20);
    await post(pod, "impl", [usage("impl", 200, 0.25), toolCall("impl", "Edit")]);
    await post(pod, "rev", [toolCall("rev", "Read")]);
    await post(other, "impl", [usage("impl", 7, 0.125)]);
  });
  afterAll(() => s.stop());

  it("answers the stored projection: each agent with rates and names, the pod's totals and cost", async () => {
    const { status, body } = await signals();
    expect(status).toBe(200);
    expect(body.window).toBeNull();
    expect(body.agents.map((a) => a.agentId)).toEqual(["impl", "rev"]);
    const a = impl(body);
    expect(a.displayName).toBe("impl");
    expect(a.roles).toEqual(["implementer"]);
    expect(a.usage.byModel["claude-sonnet-4-5"]).toMatchObject({
      inputTokens: 1200,
      outputTokens: 20,
      costUsd: 0.75,
    });
    expect(a.usage.tools).toEqual({ Bash: { calls: 1, failed: 1 }, Edit: { calls: 1, failed: 0 } });
    expect(a.rates).toMatchObject({ totalTokens: 1220, costUsd: 0.75, toolCalls: 2 });
    expect(body.pod.agentId).toBe("*");
    expect(body.pod.rates.toolCalls).toBe(3);
    expect(body.cost.map((p) => p.costUsd)).toEqual([0.5, 0.75]);
    expect(body.budgets).toEqual([]);
  });

  it("as of a seq: the tape replayed up to it equals what the projection said then", async () => {
    const { status, body } = await signals(`?asOf=${firstSeq}`);
    expect(status).toBe(200);
    expect(body).toEqual(afterFirst);
    expect(impl(body).rates.toolCalls).toBe(1);
  });

  it("over a window: only what was received in it counts", async () => {
    const { status, body } = await signals(`?from=${encodeURIComponent(between)}`);
    expect(status).toBe(200);
    expect(body.window).toEqual({ from: between, to: expect.any(String) });
    expect(impl(body).usage.byModel["claude-sonnet-4-5"]).toMatchObject({ inputTokens: 200, costUsd: 0.25 });
    expect(impl(body).usage.tools).toEqual({ Edit: { calls: 1, failed: 0 } });
    const before = (await signals(`?to=${encodeURIComponent(between)}`)).body;
    expect(impl(before).usage.tools).toEqual({ Bash: { calls: 1, failed: 1 } });
    expect(before.agents.map((x) => x.agentId)).toEqual(["impl"]);
  });

  it("counts the decisions by who took them, shows the latest, and the reversal they made", async () => {
    const team = await agentPod(s.url, "decided", { chair: "chair", impl: "implementer", rev: "reviewer" });
    const ev = (type: string, actor: string, body: object) => ({ id: randomUUID(), type, actor, body });
    const r = await api(
      s.url,
      "POST",
      `/api/v1/pods/${team.podId}/events`,
      {
        events: [
          ev("pod.scope_agreed", "admin", { scope: "s", successCriteria: ["c"] }),
          ev("pod.started", "admin", {}),
        ],
      },
      { token: TEST_ADMIN_TOKEN },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const before = new Date().toISOString();
    await sleep(20);
    await post(team, "impl", [
      ev("task.added", "impl", { taskId: "t1", description: "d" }),
      ev("task.updated", "impl", { taskId: "t1", status: "in_progress" }),
      ev("task.review_requested", "impl", { taskId: "t1" }),
    ]);
    await post(team, "rev", [ev("review", "rev", { taskId: "t1", verdict: "approve", comments: "ok" })]);
    const seq = await post(team, "chair", [
      ev("decision", "chair", {
        subject: { kind: "task", id: "t1" },
        verdict: "reject",
        rationale: "Out of scope",
        evidenceIds: [],
      }),
    ]);
    const { body } = await signals("", team.podId);
    expect(body.decisions).toMatchObject({
      count: 1,
      complete: true,
      deciders: [{ by: "chair", displayName: "chair", roles: ["chair"], count: 1 }],
      latest: [{ seq, subject: { kind: "task", id: "t1" }, verdict: "reject", rationale: "Out of scope" }],
    });
    expect(impl(body).implementer.reversals).toBe(1);
    const earlier = (await signals(`?to=${encodeURIComponent(before)}`, team.podId)).body;
    expect(earlier.decisions).toEqual({ count: 0, complete: true, deciders: [], latest: [] });
    const window = (await signals(`?from=${encodeURIComponent(before)}`, team.podId)).body;
    expect(window.decisions.count).toBe(1);
  });

  it("refuses asOf and windows that make no sense", async () => {
    const head = (await signals()).body.seq;
    const refused = [
      `?asOf=${head + 1}`,
      "?asOf=-1",
      "?asOf=1.5",
      `?asOf=1&from=2026-01-01`,
      "?from=2026-02-01&to=2026-01-01",
      "?from=yesterday",
      "?to=2026-13-45",
      "?from=2026-01-01T10:00",
      `?from=${new Date(Date.now() + 86_400_000).toISOString()}`,
    ];
    for (const q of refused) expect((await signals(q)).status, q).toBe(400);
  });

  it("recomputes at most two at once: beyond, 503 with Retry-After; the stored figures still answer", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holders = Array.from({ length: MAX_RECOMPUTATIONS }, () => s.app.recomputations.run(() => held));
    try {
      const busy = await signals(`?asOf=${firstSeq}`);
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("2");
      expect((await api(s.url, "GET", `/api/v1/signals?from=2020-01-01`)).status).toBe(503);
      expect((await signals()).status).toBe(200);
    } finally {
      release();
      await Promise.all(holders);
    }
    expect((await signals(`?asOf=${firstSeq}`)).status).toBe(200);
  });

  it("exports every pod the caller sees, one row per pod and agent, and each agent across pods", async () => {
    const { status, body } = await api<SignalsExport>(
      s.url,
      "GET",
      `/api/v1/signals?pod=${pod.podId},${other.podId}`,
    );
    expect(status).toBe(200);
    expect(body.rows.map((r) => `${r.podName}/${r.agentId}`).sort()).toEqual([
      "elsewhere/impl",
      "signals/impl",
      "signals/rev",
    ]);
    const across = body.agents.find((a) => a.agentId === "impl")!;
    expect(across.usage.byModel["claude-sonnet-4-5"]).toMatchObject({ inputTokens: 1207, costUsd: 0.875 });
    expect(across.rates.totalTokens).toBe(1237);
    const mine = await api<SignalsExport>(
      s.url,
      "GET",
      `/api/v1/signals?agent=rev&pod=${pod.podId}&pod=${other.podId}`,
    );
    expect(mine.body.rows.map((r) => r.agentId)).toEqual(["rev"]);
    // An agent token sees its own pod only, and naming another is as if it did not exist.
    const own = await api<SignalsExport>(s.url, "GET", "/api/v1/signals", undefined, {
      token: other.tokens.impl!,
    });
    expect([...new Set(own.body.rows.map((r) => r.podId))]).toEqual([other.podId]);
    expect(
      (await api(s.url, "GET", `/api/v1/signals?pod=${pod.podId}`, undefined, { token: other.tokens.impl! }))
        .status,
    ).toBe(404);
  });

  it("exports CSV (format=csv or Accept: text/csv) that parses back to the JSON's numbers", async () => {
    const query = `pod=${pod.podId}&pod=${other.podId}`;
    const json = (await api<SignalsExport>(s.url, "GET", `/api/v1/signals?${query}`)).body;
    const viaFormat = await fetch(`${s.url}/api/v1/signals?${query}&format=csv`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const viaAccept = await fetch(`${s.url}/api/v1/signals?${query}`, {
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, accept: "text/csv" },
    });
    expect(viaFormat.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await viaFormat.text();
    expect(await viaAccept.text()).toBe(text);
    const [header, ...lines] = parseCsv(text);
    expect(header).toEqual(SIGNALS_CSV_COLUMNS.map(([n]) => n));
    expect(lines).toHaveLength(json.rows.length);
    json.rows.forEach((row, i) => {
      SIGNALS_CSV_COLUMNS.forEach(([name, read], c) => {
        const want = read(row);
        const cell = lines[i]![c]!;
        if (typeof want === "number") expect(Number(cell), name).toBe(want);
        else expect(cell, name).toBe(want ?? "");
      });
    });
    expect(
      Number(lines.find((l) => l[2] === "impl" && l[0] === pod.podId)![header!.indexOf("usage.costUsd")]),
    ).toBe(0.75);
  });

  it("bounds the export's query", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `p${i}`).join(",");
    expect((await api(s.url, "GET", `/api/v1/signals?pod=${many}`)).status).toBe(400);
    expect((await api(s.url, "GET", `/api/v1/signals?agent=a&agent=b`)).status).toBe(400);
    expect((await api(s.url, "GET", `/api/v1/signals?format=xml`)).status).toBe(400);
    expect(
      (await api(s.url, "GET", `/api/v1/signals?pod=${pod.podId}&from=2026-02-01&to=2026-01-01`)).status,
    ).toBe(400);
    expect((await api(s.url, "GET", `/api/v1/signals?pod=no-such-pod`)).status).toBe(404);
  });
});

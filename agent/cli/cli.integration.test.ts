// The `podwatch` CLI as agents run it: the real bin, a spawned server, real tokens.
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api } from "../../server/testing/test-server";
import { spawnServer, SPAWN_ADMIN_TOKEN, type SpawnedServer } from "../../server/testing/spawn-server";
import { createTestDatabase, type TestDatabase } from "../../server/testing/test-databases";
import { runCli, startCli, until } from "../../server/testing/run-cli";

const seed = (name: string) =>
  join(import.meta.dirname, "..", "..", "server", "testing", "seed-examples", name);
const admin = { token: SPAWN_ADMIN_TOKEN };

describe("podwatch CLI against a spawned server", () => {
  let db: TestDatabase;
  let s: SpawnedServer;
  let podId: string;
  let tokens: Record<string, string>;
  const as = (member: string, extra: Record<string, string> = {}) => ({
    PODWATCH_URL: s.url,
    PODWATCH_TOKEN: tokens[member],
    ...extra,
  });
  const impl = (...args: string[]) => runCli(args, as("impl-1"));

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    s = await spawnServer({ DATABASE_URL: db.url, PODWATCH_DEADLINE_MIN_MS: "100" });
    ({ podId, tokens } = await agentPod(
      s.url,
      "cli",
      { "impl-1": "implementer", "rev-1": "reviewer", "chair-1": "chair" },
      admin,
    ));
  });
  afterAll(async () => {
    await s?.stop();
    await db?.drop();
  });

  it("explains itself: --help everywhere, usage errors exit 2", async () => {
    const top = await runCli(["--help"], {});
    expect(top.code).toBe(0);
    for (const c of [
      "checkpoint",
      "note",
      "plan add",
      "plan update",
      "plan read",
      "plan import",
      "handoff",
      "escalate",
      "evidence push",
      "proof submit",
      "workcell open",
      "run start",
      "run verify",
      "run commit",
      "run discard",
      "tail",
      "mcp",
    ])
      expect(top.stdout).toContain(c);
    expect(top.stdout).toContain("Exit codes");
    expect((await runCli(["plan", "--help"], {})).stdout).toContain("plan add");
    const sub = await runCli(["escalate", "--help"], {});
    expect([sub.code, sub.stdout.includes("--wait")]).toEqual([0, true]);
    expect(await runCli(["frobnicate"], {})).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "frobnicate"'),
    });
    expect(await impl("checkpoint", "--bogus")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--bogus"),
    });
    expect(await runCli(["checkpoint", "-c", "x"], {})).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("PODWATCH_URL"),
    });
    // An empty checkpoint breaks the pod's schema, checked locally before anything is sent.
    expect(await impl("checkpoint")).toMatchObject({
      code: 3,
      stderr: expect.stringContaining("a checkpoint needs at least one line in completed, next or blocked"),
    });
    expect(await impl("checkpoint", "-c", " ")).toMatchObject({
      code: 3,
      stderr: expect.stringContaining("body.completed.0: a line must not be blank"),
    });
    expect(await impl("note", "OBSERVATION")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("usage: podwatch note"),
    });
  });

  it("knows who it is from the token alone", async () => {
    const r = await impl("whoami", "--json");
    expect([r.code, JSON.parse(r.stdout)]).toEqual([0, { kind: "agent", memberId: "impl-1", podId }]);
  });

  it("checkpoints and notes, with schema errors naming the field (exit 3)", async () => {
    expect(
      await impl("checkpoint", "-c", "Parser done", "-n", "Tests", "--blocked", "API key"),
    ).toMatchObject({ code: 0, stdout: expect.stringMatching(/^checkpoint recorded as #\d+/) });
    const note = await impl("note", "OBSERVATION", "Two call sites", "--json");
    expect(note.code).toBe(0);
    expect(JSON.parse(note.stdout)).toMatchObject({
      seq: expect.any(Number),
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(
      await impl("note", "hypothesis", "Cache misses", "--set", "test=bench", "--set", "budget=15"),
    ).toMatchObject({ code: 0 });
    const bad = await impl("note", "HYPOTHESIS", "no test or budget");
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("body.test");
    expect(await impl("note", "MUSING", "x")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("OBSERVATION"),
    });
    const json = await impl("note", "HYPOTHESIS", "x", "--json");
    expect([json.code, JSON.parse(json.stdout).error.issues.map((i: { path: string }) => i.path)]).toEqual([
      3,
      ["body.test", "body.budget"],
    ]);
  });

  it("works the plan: import plan.json as written, add, update, read; pod rules are exit 6 or 3", async () => {
    // A plan with a finished task: only the chair may import it.
    expect(await impl("plan", "import", seed("plan.json"))).toMatchObject({
      code: 6,
      stderr: expect.stringContaining("chair"),
    });
    expect(await runCli(["plan", "import", seed("plan.json")], as("chair-1"))).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("plan imported"),
    });
    const added = await impl("plan", "add", "Write the docs", "--meta", "estimate_min=20");
    expect(added).toMatchObject({ code: 0, stdout: expect.stringMatching(/^task task_004 added/) });
    expect(
      await impl("plan", "update", "task_003", "--status", "in_progress", "--meta", "started_at=now"),
    ).toMatchObject({ code: 0 });
    const plan = JSON.parse((await impl("plan", "read", "--json")).stdout);
    expect(plan.tasks.map((t: { task_id: string; status: string }) => `${t.task_id}:${t.status}`)).toEqual([
      "task_001:done",
      "task_002:in_progress",
      "task_003:in_progress",
      "task_004:pending",
    ]);
    expect(plan.tasks[3].metadata).toEqual({ estimate_min: 20 });
    expect((await impl("plan", "read")).stdout).toMatch(/task_004\s+pending\s+Write the docs/);
    expect(await impl("plan", "update", "task_001", "--status", "in_progress")).toMatchObject({ code: 6 }); // done is final
    expect(await impl("plan", "update", "task_404", "--status", "blocked")).toMatchObject({
      code: 3,
      stderr: expect.stringContaining("task_404"),
    });
    expect(await impl("plan", "import", "/nonexistent/plan.json")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("no such file"),
    });
    expect(await impl("plan", "import", seed("README.md"))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("not valid JSON"),
    });
  });

  it("hands off, opens a workcell, submits its proof, and runs a run through its states", async () => {
    expect(await impl("handoff", "--to", "rev-1", "--reason", "Ready for a look")).toMatchObject({ code: 0 });
    expect(await impl("handoff", "--to", "nobody", "--reason", "x")).toMatchObject({
      code: 3,
      stderr: expect.stringContaining("nobody"),
    });
    expect(await impl("handoff", "--to", "rev-1")).toMatchObject({ code: 2 });
    await impl("plan", "add", "login endpoint", "--id", "42");
    expect(await impl("workcell", "open", seed("manifest.json"))).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("workcell wc-42-20250115T143022Z opened"),
    });
    expect(await impl("proof", "submit", seed("proof.json"))).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("proof for wc-42-20250115T143022Z"),
    });
    expect(await impl("proof", "submit", seed("proof.json"))).toMatchObject({ code: 6 }); // one proof per workcell
    expect(
      await impl("run", "start", "--run", "r1", "--task", "task_003", "--mood", "CURIOUS"),
    ).toMatchObject({ code: 0 });
    expect(
      await impl("run", "verify", "--run", "r1", "--check", "unit=pass", "--check", "lint=pass"),
    ).toMatchObject({ code: 0 });
    expect(await impl("run", "commit", "--run", "r1", "--commit", "abc123")).toMatchObject({
      code: 6,
      stderr: expect.stringContaining("director"),
    });
    expect(await runCli(["run", "verify", "--run", "r1", "--by", "director"], as("chair-1"))).toMatchObject({
      code: 0,
    });
    expect(await runCli(["run", "commit", "--run", "r1", "--commit", "abc123"], as("chair-1"))).toMatchObject(
      { code: 0 },
    );
    expect(await impl("run", "start", "--run", "r2", "--task", "task_003")).toMatchObject({ code: 0 });
    expect(await impl("run", "discard", "--run", "r2", "--reason", "wrong approach")).toMatchObject({
      code: 0,
    });
    expect(await impl("run", "commit", "--run", "r3")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--commit"),
    });
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body;
    const runs = Object.fromEntries(
      state.runs.map((r: { runId: string; status: string }) => [r.runId, r.status]),
    );
    expect(runs).toEqual({ r1: "committed", r2: "discarded" });
    expect(state.activeAgent).toBe("rev-1");
  });

  it("asks for review and gives it", async () => {
    await impl("plan", "add", "review me", "--id", "rv");
    await impl("plan", "update", "rv", "--status", "in_progress");
    expect(await impl("review", "request", "rv")).toMatchObject({ code: 0 });
    expect(
      await runCli(["review", "submit", "rv", "approve", "--comments", "Reproduced"], as("rev-1")),
    ).toMatchObject({ code: 0 });
    expect(await impl("review", "submit", "rv", "approve")).toMatchObject({ code: 6 }); // no reviewing your own work
  });

  it("escalates, and with --wait prints the answer a human gives; --timeout gives up with exit 8", async () => {
    await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/members`,
      { memberId: "ann@example.com", kind: "human", displayName: "Ann", roles: ["approver"] },
      admin,
    );
    const waiting = startCli(
      [
        "escalate",
        "Is at-least-once delivery fine?",
        "--kind",
        "risk_tolerance",
        "--option",
        "Yes",
        "--option",
        "No",
        "--id",
        "esc-cli",
        "--wait",
      ],
      as("impl-1"),
    );
    // The escalation is on the tape before anyone answers it.
    await expect
      .poll(
        async () =>
          (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body.escalations.find(
            (e: { escalationId: string }) => e.escalationId === "esc-cli",
          )?.question,
        { timeout: 30_000 },
      )
      .toBe("Is at-least-once delivery fine?");
    await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation.answered",
        actor: "ann@example.com",
        body: { escalationId: "esc-cli", answer: "Yes, receivers dedupe" },
      },
      admin,
    );
    const r = await waiting.done;
    expect(r).toMatchObject({ code: 0, stdout: "Yes, receivers dedupe\n" });
    expect(r.stderr).toContain("waiting for a human");
    // Nobody answers in time: the deadline's default answer is the answer the wait prints.
    const at = new Date(Date.now() + 1500).toISOString();
    const byDeadline = await impl(
      "escalate",
      "Deploy tonight?",
      "--option",
      "Yes",
      "--option",
      "No",
      "--deadline",
      at,
      "--then",
      "answer",
      "--answer",
      "No",
      "--wait",
      "--json",
    );
    expect(byDeadline.code).toBe(0);
    expect(JSON.parse(byDeadline.stdout)).toMatchObject({ answer: "No", by: "podwatch", byDeadline: true });
    expect(await impl("escalate", "x", "--then", "answer")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--deadline"),
    });
    expect(await impl("escalate", "x", "--deadline", "soon")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("30m"),
    });
    expect(await impl("escalate", "x", "--deadline", "30m", "--then", "answer")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--answer"),
    });
    expect(
      await impl("escalate", "x", "--option", "Yes", "--deadline", "30m", "--answer", "Maybe"),
    ).toMatchObject({ code: 3, stderr: expect.stringContaining("one of the options") });
    const remind = await impl("escalate", "Later?", "--deadline", "2h", "--json");
    expect(remind.code).toBe(0);
    const item = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body.inbox.find(
      (i: { id: string }) => i.id === `escalation:${JSON.parse(remind.stdout).escalationId}`,
    );
    expect(item.due).toMatchObject({ then: "remind" });
    expect(Date.parse(item.due.at) - Date.parse(item.at)).toBe(2 * 3600_000);
    const timedOut = await impl("escalate", "Anyone?", "--wait", "--timeout", "1", "--json");
    expect(timedOut.code).toBe(8);
    expect(JSON.parse(timedOut.stdout)).toMatchObject({ answer: null, escalationId: expect.any(String) });
    expect(await impl("escalate", "Which?", "--kind", "vibes")).toMatchObject({
      code: 3,
      stderr: expect.stringContaining("body.kind"),
    });
    // Ctrl-C while waiting is "interrupted" (130), never mistaken for "no answer" (8).
    const impatient = startCli(["escalate", "Still there?", "--wait"], as("impl-1"));
    await until(() => impatient.stderr().includes("waiting for a human"), "the wait");
    impatient.child.kill("SIGINT");
    expect(await impatient.done).toMatchObject({ code: 130, stderr: expect.stringContaining("interrupted") });
  });

  it("tails the tape: the backlog, then live events as they are written", async () => {
    const once = await impl("tail", "--once", "--after", "0", "--json");
    const lines = once.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ seq: 1, podId });
    expect(lines.map((e) => e.seq)).toEqual(lines.map((_, i) => i + 1));
    const only = await impl("tail", "--once", "--after", "0", "--type", "handoff");
    expect(only.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(/^#\d+ \d\d:\d\d:\d\d impl-1 handoff {2}Ready for a look$/),
    ]);
    const live = startCli(["tail"], as("rev-1"));
    await until(() => live.stdout().includes("escalation"), "the backlog");
    await impl("checkpoint", "-c", "live one");
    await until(() => live.stdout().includes("done: live one"), "the live event");
    live.child.kill("SIGINT");
    expect((await live.done).code).toBe(0);
  });

  it("an escalate --wait rides out a server restart and still prints the answer", async () => {
    const waiting = startCli(["escalate", "Restart-proof?", "--id", "esc-restart", "--wait"], as("impl-1"));
    await until(() => waiting.stderr().includes("waiting for a human"), "the wait");
    await s.stop();
    s = await spawnServer(
      { DATABASE_URL: db.url, PODWATCH_DEADLINE_MIN_MS: "100" },
      { port: Number(new URL(s.url).port) },
    );
    await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation.answered",
        actor: "ann@example.com",
        body: { escalationId: "esc-restart", answer: "Yes" },
      },
      admin,
    );
    expect(await waiting.done).toMatchObject({ code: 0, stdout: "Yes\n" });
  });

  it("maps access failures: revoked token 4, another pod's token 4, unknown pod 5, server down 7", async () => {
    const { id, token } = (
      await api(s.url, "POST", `/api/v1/pods/${podId}/members/impl-1/tokens`, { label: "to revoke" }, admin)
    ).body;
    await api(s.url, "DELETE", `/api/v1/pods/${podId}/tokens/${id}`, undefined, admin);
    // Each says what is wrong: the token itself, the token's pod, or the pod named.
    const badToken = "the server refused the token (unknown, revoked or mistyped): check PODWATCH_TOKEN";
    expect(
      await runCli(["checkpoint", "-c", "x"], { PODWATCH_URL: s.url, PODWATCH_TOKEN: token }),
    ).toMatchObject({ code: 4, stderr: expect.stringContaining(badToken) });
    expect(
      await runCli(["checkpoint", "-c", "x"], {
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: "pwa_garbage",
        PODWATCH_POD: podId,
      }),
    ).toMatchObject({ code: 4, stderr: expect.stringContaining(badToken) });
    const other = (await api(s.url, "POST", "/api/v1/pods", { name: "other", mode: "collaboration" }, admin))
      .body.id;
    const wrongPod = await impl("checkpoint", "-c", "x", "--pod", other, "--json");
    expect(wrongPod.code).toBe(4);
    expect(JSON.parse(wrongPod.stdout).error).toMatchObject({
      status: 403,
      code: "wrong_pod",
      message: `this token belongs to pod ${podId}; it cannot append to another pod`,
    });
    for (const missing of [randomUUID(), "no-such-pod"]) {
      const r = await impl("checkpoint", "-c", "x", "--pod", missing);
      expect(r, missing).toMatchObject({
        code: 5,
        stderr: `podwatch: no pod ${missing} on this server: check PODWATCH_POD (or --pod)\n`,
      });
      expect(
        (
          await api(
            s.url,
            "POST",
            `/api/v1/pods/${missing}/events`,
            { type: "note", actor: "impl-1", body: { kind: "STATUS", text: "x" } },
            { token: tokens["impl-1"]! },
          )
        ).status,
      ).toBe(404);
    }
    expect(
      await runCli(["plan", "read"], {
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: SPAWN_ADMIN_TOKEN,
        PODWATCH_POD: "no-such-pod",
      }),
    ).toMatchObject({ code: 5, stderr: expect.stringContaining("no pod no-such-pod") });
    expect(
      await runCli(["checkpoint", "-c", "x"], {
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: SPAWN_ADMIN_TOKEN,
        PODWATCH_POD: podId,
      }),
    ).toMatchObject({ code: 2, stderr: expect.stringContaining("PODWATCH_ACTOR") });
    expect(
      await runCli(["checkpoint", "-c", "as automation"], {
        PODWATCH_URL: s.url,
        PODWATCH_TOKEN: SPAWN_ADMIN_TOKEN,
        PODWATCH_POD: podId,
        PODWATCH_ACTOR: "chair-1",
      }),
    ).toMatchObject({ code: 0 });
    expect(
      await runCli(["whoami"], { PODWATCH_URL: "http://127.0.0.1:9", PODWATCH_TOKEN: "x" }),
    ).toMatchObject({ code: 7, stderr: expect.stringContaining("cannot reach podwatch") });
  });
});

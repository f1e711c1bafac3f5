// The agent guides' examples, run verbatim against a real server: the CLI block of
// docs/agents/cli-sdk-mcp.md in a real shell with `podwatch` on the PATH, and the curl lines of
// docs/agents/http-api.md that post the files in examples/ with real curl. An example that stops
// working fails here.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./start-server";
import { PODWATCH_BIN, type CliResult, until } from "./testing/run-cli";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "./testing/test-server";

/** The commands of a guide's ```sh blocks (one guide, one subject), continued lines joined. */
function shellCommands(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const blocks = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .join("")
    .replace(/\\\n/g, "")
    .split("\n")
    .filter((l) => l.trim() && !l.trim().startsWith("#"));
}

type Shell = { done: Promise<CliResult>; stdout: () => string; interrupt: () => void };

describe("the agent guides' examples, verbatim", () => {
  let s: TestServer;
  let bin: string;
  const admin = { token: TEST_ADMIN_TOKEN };

  /** One line of a guide in bash, from the repository's root (where examples/ is), as an agent would type it. */
  function sh(line: string, env: Record<string, string>): Shell {
    const child = spawn("bash", ["-c", line], {
      cwd: ROOT,
      env: { NODE_ENV: "production", PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const done = new Promise<CliResult>((resolve) =>
      child.on("close", (code, signal) =>
        resolve({ code: code ?? (signal === "SIGINT" ? 130 : -1), stdout, stderr }),
      ),
    );
    return { done, stdout: () => stdout, interrupt: () => process.kill(-child.pid!, "SIGINT") }; // like Ctrl-C: the whole group
  }

  beforeAll(async () => {
    s = await startTestServer("sqlite");
    bin = mkdtempSync(join(tmpdir(), "podwatch-bin-"));
    writeFileSync(join(bin, "podwatch"), `#!/bin/sh\nexec "${process.execPath}" "${PODWATCH_BIN}" "$@"\n`); // what `npm link` puts on the PATH
    chmodSync(join(bin, "podwatch"), 0o755);
  });
  afterAll(async () => {
    await s?.stop();
    if (bin) rmSync(bin, { recursive: true, force: true });
  });

  it("the CLI block, line by line, as implementer-1 of a pod with a reviewer and a human", async () => {
    const { podId, tokens } = await agentPod(
      s.url,
      "readme-cli",
      { "implementer-1": "implementer", "reviewer-1": "reviewer" },
      admin,
    );
    await api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/members`,
      { memberId: "ann@example.com", kind: "human", displayName: "Ann", roles: ["approver"] },
      admin,
    );
    const env = { PODWATCH_URL: s.url, PODWATCH_TOKEN: tokens["implementer-1"]! };
    const lines = shellCommands("docs/agents/cli-sdk-mcp.md");
    expect(lines.filter((l) => l.startsWith("podwatch ")).length).toBeGreaterThan(10);
    for (const line of lines) {
      // Installing the kit from the server and `claude mcp add` are the connect snippets' test
      // (components/pod/connect-snippets.integration.test.ts); here the checkout's own CLI stands in.
      if (/^(npm install -g|claude mcp add) /.test(line)) continue;
      if (line.startsWith("export ")) {
        // Its values are placeholders; the test's own server and token stand in for them.
        expect(line).toMatch(/^export PODWATCH_URL=\S+ PODWATCH_TOKEN=\S+$/);
        continue;
      }
      expect(line, "every line is a podwatch command").toMatch(/^podwatch /);
      const command = line.replace(/\s+#[^"]*$/, ""); // without its comment
      const run = sh(line, env);
      if (/ --wait\b/.test(command)) {
        // A human answers in the control room; here, through the API.
        const waiting = async () =>
          (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body.escalations.find(
            (e: { answer: unknown }) => !e.answer,
          )?.escalationId;
        await expect.poll(waiting, { timeout: 30_000 }).toBeTruthy();
        await api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/events`,
          {
            type: "escalation.answered",
            actor: "ann@example.com",
            body: { escalationId: await waiting(), answer: "Yes, receivers dedupe" },
          },
          admin,
        );
        expect(await run.done, line).toMatchObject({ code: 0, stdout: "Yes, receivers dedupe\n" });
      } else if (/^podwatch tail\b/.test(command) && !command.includes("--once")) {
        // Live: it prints the recent tape, then keeps following until Ctrl-C.
        await until(() => run.stdout().includes("escalation.answered"), `${line} to print the tape`);
        run.interrupt();
        expect((await run.done).code, line).toBeOneOf([0, 130]);
      } else {
        const r = await run.done;
        expect({ line, code: r.code, stderr: r.stderr }).toEqual({
          line,
          code: 0,
          stderr: expect.any(String),
        });
      }
    }
    // What the block did is on the pod: the plan, the evidence linked to the task in review, the workcell's proof.
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body;
    const task2 = state.board.find((t: { taskId: string }) => t.taskId === "task_002");
    expect(task2).toMatchObject({ status: "in_review", evidenceIds: [expect.any(String)] });
    expect(state.board.map((t: { taskId: string }) => t.taskId)).toEqual([
      "task_001",
      "task_002",
      "task_003",
      "task_004",
    ]);
    expect(
      state.workcells.map((w: { taskId: string; proof: { allPassed: boolean } }) => [
        w.taskId,
        w.proof.allPassed,
      ]),
    ).toEqual([["task_002", true]]);
  });

  it("the curl lines that post example files", async () => {
    const { podId, tokens } = await agentPod(s.url, "readme-curl", { "implementer-1": "implementer" }, admin);
    const manifest = JSON.parse(readFileSync(join(ROOT, "examples", "manifest.json"), "utf8"));
    // The variables the guide's curl blocks define or leave to the reader.
    const env = {
      BASE: s.url,
      POD: podId,
      AGENT: `authorization: Bearer ${tokens["implementer-1"]}`,
      J: "content-type: application/json",
      WORKCELL: manifest.workcell_id,
    };
    const lines = shellCommands("docs/agents/http-api.md").filter(
      (l) => l.startsWith("curl ") && /[@ ]examples\//.test(l),
    );
    expect(lines.length).toBeGreaterThanOrEqual(4); // plan, workcell, proof, blob
    for (const line of lines) {
      const r = await sh(line, env).done;
      expect({ line, code: r.code }).toEqual({ line, code: 0 });
      expect({ line, body: JSON.parse(r.stdout) }).not.toMatchObject({ body: { error: expect.anything() } });
    }
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body;
    expect(state.board.length).toBe(3);
    expect(state.workcells[0]).toMatchObject({
      workcellId: manifest.workcell_id,
      proof: { allPassed: true },
    });
  });
});

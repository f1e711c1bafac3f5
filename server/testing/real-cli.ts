// What the integration tests that drive a real agent program (Claude Code, Codex, Gemini CLI)
// against podwatch and a scripted fake model API share: private folders and child processes
// cleaned up after, a pod with the agent and an approving person under a tool policy, the tape,
// a person answering each held call from the inbox, and each vendor's environment for running
// offline. The programs are the dev dependencies' own binaries; their hooks are installed by
// `podwatch hooks install` from the kit the server serves (installed-podwatch.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import type { Identity } from "../domain/access/policy";
import { inboxOperations } from "../pods/inbox-operations";
import { performOperation } from "../web/perform-operation";
import { sleep } from "./eventually";
import { agentPod, api, type TestServer } from "./test-server";

const BIN = join(import.meta.dirname, "..", "..", "node_modules", ".bin");
/** The real programs, as npm installed them. */
export { CLAUDE, claudeEnv } from "./claude-offline";
export const CODEX = join(BIN, "codex");
export const GEMINI = join(BIN, "gemini");

export type Ev = {
  type: string;
  actor: string;
  body: Record<string, any>;
  meta: { sessionId?: string } | null;
};
export type Ran = { code: number; stdout: string; stderr: string };
export type Person = Extract<Identity, { kind: "user" }>;

/** The approver who answers held calls and steers sessions in these tests. */
export const PIA: Person = {
  kind: "user",
  userId: "u-pia",
  email: "pia@example.com",
  name: "Pia",
  isAdmin: false,
};

/** Codex's config.toml for a Responses API fake at `baseUrl` (its `/v1`), the key read from FAKE_OPENAI_KEY. */
export const codexConfig = (baseUrl: string) =>
  `model = "gpt-5-codex"\nmodel_provider = "fake"\n[model_providers.fake]\nname = "fake"\n` +
  `base_url = "${baseUrl}"\nenv_key = "FAKE_OPENAI_KEY"\nwire_api = "responses"\n`;

/** Gemini CLI's settings before podwatch's hooks are merged in: API-key auth, one model, nothing reported. */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  model: { name: "gemini-2.5-flash" },
  privacy: { usageStatisticsEnabled: false },
  general: { disableAutoUpdate: true },
};

/** Only what the programs need on PATH: `podwatch` first, then node. (No GITHUB_SHA: Gemini would redact PODWATCH_TOKEN from its hooks.) */
export const cliPath = (podwatchBin: string) => `${podwatchBin}:${dirname(process.execPath)}:/usr/bin:/bin`;

/** Private folders and child processes of one test file; `close()` in afterAll. */
export function cliRoom() {
  const children = new Set<ChildProcess>();
  const folders: string[] = [];
  return {
    folder(prefix: string) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      folders.push(dir);
      return dir;
    },
    /** Runs a program to its end, its output kept. */
    run(cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<Ran> {
      const child = spawn(cmd, args, {
        cwd,
        env: { NODE_ENV: "production", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.add(child);
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (d) => (stdout += d));
      child.stderr!.on("data", (d) => (stderr += d));
      return new Promise((resolve) =>
        child.on("close", (code) => {
          children.delete(child);
          resolve({ code: code ?? -1, stdout, stderr });
        }),
      );
    },
    close() {
      for (const c of children) c.kill("SIGKILL");
      for (const dir of folders) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const tapeOf = async (s: TestServer, podId: string): Promise<Ev[]> =>
  (await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`)).body.events;

/** A pod with `agent` (an implementer with a token) and `person` as an approver, under `policy`. */
export async function podWithApprover(
  s: TestServer,
  name: string,
  agent: string,
  policy: object,
  person = PIA,
) {
  const { podId, tokens } = await agentPod(s.url, name, { [agent]: "implementer" });
  const member = { memberId: person.email, kind: "human", displayName: person.name, roles: ["approver"] };
  expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, member)).status).toBe(201);
  const set = { type: "agent.policy.set", actor: "ops-admin", body: policy };
  expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, set)).status).toBe(201);
  return { podId, token: tokens[agent]! };
}

/**
 * Until `until` settles, the person answers each call the pod holds, in the order they come:
 * `onHeld` runs first (a test steers there) and says the answer. Returns how many were held.
 */
export async function answerHeldCalls(
  s: TestServer,
  podId: string,
  until: Promise<unknown>,
  onHeld: (e: Ev, nth: number) => Promise<{ decision: "allow" } | { decision: "deny"; reason: string }>,
  person = PIA,
) {
  const answered = new Set<string>();
  let finished = false;
  void until.finally(() => (finished = true));
  while (!finished) {
    for (const e of await tapeOf(s, podId)) {
      if (e.type !== "tool.approval.requested" || answered.has(e.body.requestId)) continue;
      answered.add(e.body.requestId);
      const answer = { requestId: e.body.requestId, ...(await onHeld(e, answered.size)) };
      const r = await performOperation(s.app, person, inboxOperations.answerToolApproval, { podId, answer });
      expect(r.ok).toBe(true);
    }
    await sleep(100);
  }
  return answered.size;
}

/** A fresh home and project with podwatch's Claude Code hooks (`--http` by default) installed for `token`. */
export async function claudeProject(
  room: ReturnType<typeof cliRoom>,
  s: TestServer,
  podwatchBin: string,
  token: string,
  install: string[] = ["--http"],
) {
  const home = room.folder("podwatch-claude-home-");
  const cwd = room.folder("podwatch-claude-project-");
  const env = {
    PATH: `${podwatchBin}:${process.env.PATH}`,
    HOME: home,
    PODWATCH_URL: s.url,
    PODWATCH_TOKEN: token,
    PODWATCH_SPOOL_DIR: join(home, "spool"),
  };
  const installed = await room.run("podwatch", ["hooks", "install", ...install], cwd, env);
  expect(installed.code, installed.stderr).toBe(0);
  return { cwd, env };
}

// What the specs that drive a real agent program (Claude Code, Codex, Gemini CLI) share: a pod with
// the agent as a member, its token and a tool policy, a person who answers in the inbox, the
// agent's child processes, Claude Code installed in a folder, and the inbox card of a held command.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { installedPodwatch } from "../server/testing/installed-podwatch";
import { CLAUDE, claudeEnv } from "../server/testing/claude-offline";
import { adminPost, createPerson, createPod, ev, expect, signIn } from "./fixtures";

/** A pod where `memberId` is an agent with a token, under `policy`; the browser signed in as an approver. */
export async function podHoldingCalls(
  request: APIRequestContext,
  context: BrowserContext,
  agent: { memberId: string; displayName: string; tokenLabel: string; policy: object; author?: string },
) {
  const pod = await createPod(request);
  await adminPost(request, `/api/v1/pods/${pod.id}/members`, {
    memberId: agent.memberId,
    kind: "agent",
    displayName: agent.displayName,
    roles: ["implementer"],
  });
  const { token } = await adminPost(request, `/api/v1/pods/${pod.id}/members/${agent.memberId}/tokens`, {
    label: agent.tokenLabel,
  });
  await adminPost(
    request,
    `/api/v1/pods/${pod.id}/events`,
    ev("agent.policy.set", agent.author ?? "ops-admin", agent.policy),
  );
  await signIn(context, await createPerson(request, pod.id, "approver"));
  return { pod, token: token as string };
}

/** Runs a program to its end, its output kept; `children` collects it so the spec can kill what is left. */
export function runChild(
  cmd: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv },
  children: ChildProcess[],
) {
  const child = spawn(cmd, args, { ...o, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d));
  child.stderr!.on("data", (d: Buffer) => (out += d));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, out })),
  );
}

/** The inbox card of the held call running `command`. */
export const heldCallCard = (page: Page, command: string) =>
  page
    .getByTestId("inbox-item")
    .filter({ has: page.getByTestId("held-call-command").getByText(command, { exact: true }) });

/**
 * A folder with podwatch's Claude Code hooks installed (`install`: the installer's flags) for `token`,
 * and `claude(prompt)`: the real `claude -p` there, offline against the fake model API at `modelUrl`.
 */
export async function claudeAt(
  o: { baseURL: string; token: string; modelUrl: string; install: string[] },
  children: ChildProcess[],
) {
  const root = mkdtempSync(join(tmpdir(), "podwatch-e2e-claude-"));
  const work = join(root, "work");
  mkdirSync(work);
  const bin = await installedPodwatch(o.baseURL);
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: "production",
    PATH: `${bin}:${process.env.PATH}`,
    HOME: root,
    PODWATCH_URL: o.baseURL,
    PODWATCH_TOKEN: o.token,
    PODWATCH_SPOOL_DIR: join(root, "spool"),
  };
  const install = await runChild(
    join(bin, "podwatch"),
    ["hooks", "install", ...o.install],
    { cwd: work, env },
    children,
  );
  expect(install.code, install.out).toBe(0);
  const claude = (prompt: string) =>
    runChild(
      CLAUDE,
      ["-p", prompt, "--output-format", "json", "--permission-mode", "bypassPermissions"],
      { cwd: work, env: { ...env, ...claudeEnv(o.modelUrl) } },
      children,
    );
  return { work, claude };
}

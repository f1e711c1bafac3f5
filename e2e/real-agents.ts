// What the specs that drive a real agent program (Claude Code, Codex, Gemini CLI) share: a pod with
// the agent as a member, its token and a tool policy, a person who answers in the inbox, the
// agent's child processes, and the inbox card of a held command.
import { spawn, type ChildProcess } from "node:child_process";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { adminPost, createPerson, createPod, ev, signIn } from "./fixtures";

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

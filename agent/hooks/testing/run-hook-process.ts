// `podwatch hook` exactly as Claude Code runs it: the real bin as a child process, the hook's
// JSON on stdin, PODWATCH_URL / PODWATCH_TOKEN in its environment; its exit code and stdout.
import { spawn } from "node:child_process";
import { PODWATCH_BIN } from "../../../server/testing/run-cli";

export type HookRun = { code: number; stdout: string; stderr: string; ms: number; json: unknown };

export function runHookProcess(
  payload: unknown,
  env: Record<string, string>,
  args: string[] = [],
): Promise<HookRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [PODWATCH_BIN, "hook", ...args], {
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  child.stdin.end(typeof payload === "string" ? payload : JSON.stringify(payload));
  return new Promise((resolve) =>
    child.on("close", (code) => {
      let json: unknown = undefined;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* not JSON: the test says what it expected */
      }
      resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started, json });
    }),
  );
}

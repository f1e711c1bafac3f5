// Runs the real `podwatch` bin as a child process, the way an agent would.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

export const PODWATCH_BIN = join(import.meta.dirname, "..", "..", "agent", "bin", "podwatch.mjs");
export type CliResult = { code: number; stdout: string; stderr: string };

export function startCli(
  args: string[],
  env: Record<string, string | undefined>,
): { child: ChildProcess; done: Promise<CliResult>; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, [PODWATCH_BIN, ...args], {
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })),
  );
  return { child, done, stdout: () => stdout, stderr: () => stderr };
}

export const runCli = (args: string[], env: Record<string, string | undefined>) => startCli(args, env).done;

/** Resolves once `predicate` holds for the child's output so far (polls; the test's own timeout bounds it). */
export async function until(predicate: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

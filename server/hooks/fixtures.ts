// Recorded Claude Code hook payloads (see fixtures/README.md), for tests, the CLI hook and the bench.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const HOOK_FIXTURES = [
  "session-start",
  "user-prompt-submit",
  "pre-tool-use-read",
  "post-tool-use-read",
  "pre-tool-use-bash",
  "post-tool-use-bash",
  "post-tool-use-failure",
  "pre-tool-use-git-push",
  "permission-request",
  "notification",
  "subagent-start",
  "subagent-stop",
  "pre-compact",
  "stop-checkpoint",
  "stop-note",
  "session-end",
  "unknown-event",
] as const;
export type HookFixture = (typeof HOOK_FIXTURES)[number];

const DIR = join(import.meta.dirname, "fixtures");

/** A fixture's hook input, parsed (a fresh object each call, so a test may change it). */
export function readHookFixture(name: HookFixture): Record<string, unknown> {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), "utf8")) as Record<string, unknown>;
}

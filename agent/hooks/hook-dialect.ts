// What differs between the agents whose hooks `podwatch hook` runs (`--agent`): the door it posts
// to, which events gate a tool, where a hook waiting for podwatch is spooled (so it replays to its
// own door), when the transcript's usage is read, and how an answer is written for the agent. The
// hook's own answers (a failure, the unreachable rule) are built in Claude Code's shape and
// rewritten by `answer`.
import { HOOK_ROUTE } from "../sdk/hook-post";
import { pricedUsage } from "./priced-usage";
import { USAGE_EVENTS } from "./report-usage";
import type { Spool } from "./spool";
import { GATED_EVENTS } from "./unreachable-rule";
import { CODEX_DIALECT } from "./codex-dialect";
import { GEMINI_DIALECT } from "./gemini-dialect";

export type HookDialect = {
  route: string;
  gated: ReadonlySet<string>;
  /** A folder of the spool's own, or null for the spool's root (Claude Code's). */
  spoolFolder: string | null;
  usageEvents: ReadonlySet<string>;
  /** Spools the usage the agent's log gained since the last read; returns how many events. */
  spoolUsage: (
    spool: Spool,
    payload: Record<string, unknown>,
    env: NodeJS.ProcessEnv,
  ) => number | Promise<number>;
  answer: (output: string) => string;
};

export const CLAUDE_CODE_DIALECT: HookDialect = {
  route: HOOK_ROUTE,
  gated: GATED_EVENTS,
  spoolFolder: null,
  usageEvents: USAGE_EVENTS,
  spoolUsage: pricedUsage(),
  answer: (output) => output,
};

const DIALECTS: Record<string, HookDialect> = {
  "claude-code": CLAUDE_CODE_DIALECT,
  codex: CODEX_DIALECT,
  gemini: GEMINI_DIALECT,
  "gemini-cli": GEMINI_DIALECT,
};
export const HOOK_AGENTS = Object.keys(DIALECTS);

/** The dialect `--agent NAME` (or `--agent=NAME`) names in argv: Claude Code's without one, null for an unknown name. */
export function dialectOf(argv: string[]): HookDialect | null {
  let name: string | undefined;
  argv.forEach((a, i) => {
    if (a === "--agent") name = argv[i + 1];
    else if (a.startsWith("--agent=")) name = a.slice("--agent=".length);
  });
  if (name === undefined) return CLAUDE_CODE_DIALECT;
  return Object.hasOwn(DIALECTS, name) ? DIALECTS[name]! : null;
}

// `podwatch hooks install|uninstall`: our entries in an agent's hooks file (Claude Code's settings,
// Codex's hooks.json, Gemini CLI's settings), merged with whatever is there (the merges are pure:
// agent/hooks/settings-merge.ts, gemini-hooks.ts).
import { homedir } from "node:os";
import { UsageError } from "../../sdk/errors";
import { ourHooks } from "../../hooks/our-hooks";
import { mergeHooks, SettingsShapeError, unmergeHooks, type Settings } from "../../hooks/settings-merge";
import {
  formatSettings,
  readSettings,
  SCOPES,
  settingsPath,
  UnreadableSettings,
  writeSettings,
  type Scope,
} from "../../hooks/settings-file";
import { unifiedDiff } from "../../hooks/text-diff";
import { CODEX_TRUST_NOTE, codexHooks, codexHooksPath } from "../../hooks/codex-hooks";
import { geminiSettingsPath, mergeGeminiHooks, unmergeGeminiHooks } from "../../hooks/gemini-hooks";
import { str, type Command, type OptionSpec, type Result } from "../command";

const scopeOption: OptionSpec = {
  type: "string",
  description: `which settings: local (.claude/settings.local.json, the default), project (.claude/settings.json) or user (~/.claude/settings.json); for Codex and Gemini CLI user (the default) or project`,
  value: "SCOPE",
};
const dryRun: OptionSpec = { type: "boolean", description: "print the change as a diff; write nothing" };
const agentOption: OptionSpec = {
  type: "string",
  description:
    "whose hooks: claude-code (the default), codex ($CODEX_HOME/hooks.json, or .codex/hooks.json with --scope project) or gemini (Gemini CLI: $GEMINI_CLI_HOME or ~, .gemini/settings.json; or the project's)",
  value: "AGENT",
};
const AGENTS = ["claude-code", "codex", "gemini"] as const;
type HookAgent = (typeof AGENTS)[number];
const NAMES: Record<HookAgent, string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
};

function agentOf(v: unknown): HookAgent {
  const agent = str(v) ?? "claude-code";
  if (agent === "gemini-cli") return "gemini";
  if (!(AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`--agent takes ${AGENTS.join(", ")}, not "${agent}"`);
  return agent as HookAgent;
}

/** The file an agent's hooks go in: Claude Code's settings of a scope, else the agent's own (user or project). */
function hooksFile(agent: HookAgent, scopeValue: unknown): string {
  const where = { cwd: process.cwd(), home: process.env.HOME || homedir() };
  if (agent === "claude-code") return settingsPath(scopeOf(scopeValue), where);
  const scope = str(scopeValue) ?? "user";
  if (scope !== "user" && scope !== "project")
    throw new UsageError(`--scope takes user or project for ${NAMES[agent]}, not "${scope}"`);
  return agent === "codex"
    ? codexHooksPath(scope, { ...where, codexHome: process.env.CODEX_HOME })
    : geminiSettingsPath(scope, { ...where, geminiHome: process.env.GEMINI_CLI_HOME });
}

function scopeOf(v: unknown): Scope {
  const scope = str(v) ?? "local";
  if (!(SCOPES as readonly string[]).includes(scope))
    throw new UsageError(`--scope takes ${SCOPES.join(", ")}, not "${scope}"`);
  return scope as Scope;
}

function apply(change: (s: Settings) => Settings, path: string, dry: boolean, verb: string): Result {
  let text: string;
  let next: Settings;
  try {
    const current = readSettings(path);
    text = current.text;
    next = change(current.settings);
  } catch (e) {
    if (e instanceof UnreadableSettings || e instanceof SettingsShapeError)
      throw new UsageError(
        e instanceof SettingsShapeError ? `${path}: ${e.message}; nothing was changed` : e.message,
      );
    throw e;
  }
  const after = formatSettings(next);
  const unchanged = text.trim()
    ? JSON.stringify(JSON.parse(text)) === JSON.stringify(next)
    : !Object.keys(next).length;
  const diff = unchanged ? "" : unifiedDiff(text, after, path);
  if (!unchanged && !dry) writeSettings(path, after);
  const summary = unchanged
    ? `${path}: already ${verb === "installed" ? "has podwatch's hooks" : "free of podwatch's hooks"}, nothing to change`
    : dry
      ? `${diff}(dry run: ${path} not written)`
      : `podwatch hooks ${verb} in ${path}`;
  return { text: summary, json: { path, changed: !unchanged, written: !unchanged && !dry, diff } };
}

export const hooksInstall: Command = {
  name: "hooks install",
  summary: "Add podwatch's Claude Code (or Codex, or Gemini CLI) hooks to a settings file (idempotent)",
  options: {
    agent: agentOption,
    scope: scopeOption,
    http: {
      type: "boolean",
      description: "Claude Code posts each hook to podwatch ($PODWATCH_URL, or --url); no process per hook",
    },
    command: {
      type: "boolean",
      description:
        "Claude Code runs `podwatch hook` (the default): spools while podwatch is down, reports usage",
    },
    bin: {
      type: "string",
      description:
        'how Claude Code runs podwatch (default "podwatch"; e.g. "node /path/to/agent/bin/podwatch.mjs")',
      value: "CMD",
    },
    "dry-run": dryRun,
  },
  examples: [
    "podwatch hooks install",
    "podwatch hooks install --http --scope project --dry-run",
    "podwatch hooks install --agent codex",
    "podwatch hooks install --agent gemini",
  ],
  run: async ({ values: v }) => {
    if (v.http && v.command) throw new UsageError("choose one of --http or --command");
    const agent = agentOf(v.agent);
    if (agent !== "claude-code") {
      if (v.http) throw new UsageError(`${NAMES[agent]} runs command hooks only: leave out --http`);
      const bin = str(v.bin)?.trim() || "podwatch";
      const merge =
        agent === "codex"
          ? (s: Settings) => mergeHooks(s, codexHooks(bin))
          : (s: Settings) => mergeGeminiHooks(s, bin);
      const done = apply(merge, hooksFile(agent, v.scope), v["dry-run"] === true, "installed");
      return agent === "codex" ? { ...done, text: `${done.text}\n${CODEX_TRUST_NOTE}` } : done;
    }
    const url = str(v.url) ?? process.env.PODWATCH_URL ?? "";
    if (v.http && !/^https?:\/\/[^/]/.test(url))
      throw new UsageError("--http needs podwatch's address: set PODWATCH_URL or pass --url");
    const ours = ourHooks(v.http ? "http" : "command", url, str(v.bin)?.trim() || "podwatch");
    return apply(
      (s) => mergeHooks(s, ours),
      hooksFile("claude-code", v.scope),
      v["dry-run"] === true,
      "installed",
    );
  },
};

export const hooksUninstall: Command = {
  name: "hooks uninstall",
  summary:
    "Remove podwatch's Claude Code (or Codex, or Gemini CLI) hooks, and nothing else, from a settings file",
  options: { agent: agentOption, scope: scopeOption, "dry-run": dryRun },
  examples: ["podwatch hooks uninstall --scope user", "podwatch hooks uninstall --agent codex"],
  run: async ({ values: v }) => {
    const agent = agentOf(v.agent);
    const change = agent === "gemini" ? unmergeGeminiHooks : unmergeHooks;
    return apply(change, hooksFile(agent, v.scope), v["dry-run"] === true, "uninstalled");
  },
};

export const hooksCommands = [hooksInstall, hooksUninstall];

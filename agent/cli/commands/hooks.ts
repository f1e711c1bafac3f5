// `podwatch hooks install|uninstall`: our entries in a Claude Code settings file, merged with
// whatever is there (the merge itself is pure: agent/hooks/settings-merge.ts).
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
import { geminiSettingsPath, mergeGeminiHooks, unmergeGeminiHooks } from "../../hooks/gemini-hooks";
import { str, type Command, type OptionSpec, type Result } from "../command";

const scopeOption: OptionSpec = {
  type: "string",
  description: `which settings: local (.claude/settings.local.json, the default), project (.claude/settings.json) or user (~/.claude/settings.json); for Gemini CLI user ($GEMINI_CLI_HOME or ~, .gemini/settings.json, the default) or project (.gemini/settings.json)`,
  value: "SCOPE",
};
const agentOption: OptionSpec = {
  type: "string",
  description: "whose hooks: claude-code (the default) or gemini (Gemini CLI)",
  value: "AGENT",
};

/** Gemini CLI's settings file for `--scope` (user or project); null when the agent is Claude Code. */
function geminiPath(agent: unknown, scope: unknown): string | null {
  const a = str(agent) ?? "claude-code";
  if (a === "claude-code") return null;
  if (a !== "gemini" && a !== "gemini-cli")
    throw new UsageError(`--agent takes claude-code or gemini, not "${a}"`);
  const s = str(scope) ?? "user";
  if (s !== "user" && s !== "project")
    throw new UsageError(`--scope for Gemini CLI takes user or project, not "${s}"`);
  const home = process.env.HOME || homedir();
  return geminiSettingsPath(s, { cwd: process.cwd(), home, geminiHome: process.env.GEMINI_CLI_HOME });
}
const dryRun: OptionSpec = { type: "boolean", description: "print the change as a diff; write nothing" };

function scopeOf(v: unknown): Scope {
  const scope = str(v) ?? "local";
  if (!(SCOPES as readonly string[]).includes(scope))
    throw new UsageError(`--scope takes ${SCOPES.join(", ")}, not "${scope}"`);
  return scope as Scope;
}

const claudePath = (scope: Scope) =>
  settingsPath(scope, { cwd: process.cwd(), home: process.env.HOME || homedir() });

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
  summary: "Add podwatch's Claude Code (or Gemini CLI) hooks to a settings file (idempotent)",
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
    "podwatch hooks install --agent gemini",
  ],
  run: async ({ values: v }) => {
    const gemini = geminiPath(v.agent, v.scope);
    if (gemini) {
      if (v.http) throw new UsageError("Gemini CLI runs command hooks only: leave out --http");
      const bin = str(v.bin)?.trim() || "podwatch";
      return apply((s) => mergeGeminiHooks(s, bin), gemini, v["dry-run"] === true, "installed");
    }
    if (v.http && v.command) throw new UsageError("choose one of --http or --command");
    const url = str(v.url) ?? process.env.PODWATCH_URL ?? "";
    if (v.http && !/^https?:\/\/[^/]/.test(url))
      throw new UsageError("--http needs podwatch's address: set PODWATCH_URL or pass --url");
    const ours = ourHooks(v.http ? "http" : "command", url, str(v.bin)?.trim() || "podwatch");
    return apply(
      (s) => mergeHooks(s, ours),
      claudePath(scopeOf(v.scope)),
      v["dry-run"] === true,
      "installed",
    );
  },
};

export const hooksUninstall: Command = {
  name: "hooks uninstall",
  summary: "Remove podwatch's Claude Code (or Gemini CLI) hooks, and nothing else, from a settings file",
  options: { agent: agentOption, scope: scopeOption, "dry-run": dryRun },
  examples: ["podwatch hooks uninstall --scope user", "podwatch hooks uninstall --agent gemini"],
  run: async ({ values: v }) => {
    const gemini = geminiPath(v.agent, v.scope);
    const change = gemini ? unmergeGeminiHooks : unmergeHooks;
    return apply(change, gemini ?? claudePath(scopeOf(v.scope)), v["dry-run"] === true, "uninstalled");
  },
};

export const hooksCommands = [hooksInstall, hooksUninstall];

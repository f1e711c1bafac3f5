// What `podwatch hooks install --agent gemini` puts in a Gemini CLI settings file, and where that
// file is. Gemini's `hooks` object is Claude Code's shape (event → matcher groups → hooks) beside
// a few settings of its own (enabled, disabled, notifications), which the merge leaves alone.
// The entries themselves: gemini-settings-snippet.ts.
import { join } from "node:path";
import { geminiHooks } from "./gemini-settings-snippet";
import { mergeHooks, unmergeHooks, type Settings } from "./settings-merge";
import type { ClaudeHooks } from "./settings-snippet";

export const GEMINI_SCOPES = ["user", "project"] as const;
export type GeminiScope = (typeof GEMINI_SCOPES)[number];

/** user: every project ($GEMINI_CLI_HOME, else the home folder); project: this folder's (Gemini runs them in a trusted folder only). */
export function geminiSettingsPath(
  scope: GeminiScope,
  o: { cwd: string; home: string; geminiHome?: string },
) {
  return join(scope === "user" ? o.geminiHome || o.home : o.cwd, ".gemini", "settings.json");
}

/** Gemini's own keys in `hooks` that are not events. */
const CONFIG_KEYS = new Set(["enabled", "disabled", "notifications"]);

/** Runs a Claude Code hooks merge over the events alone, keeping Gemini's settings in `hooks` as they were. */
function overEvents(settings: Settings, change: (s: Settings) => Settings): Settings {
  const h = settings.hooks;
  if (!h || typeof h !== "object" || Array.isArray(h)) return change(settings);
  const config = Object.entries(h).filter(([k]) => CONFIG_KEYS.has(k));
  const events = Object.fromEntries(Object.entries(h).filter(([k]) => !CONFIG_KEYS.has(k)));
  const next = change({ ...settings, hooks: events });
  if (!config.length) return next;
  return { ...next, hooks: { ...Object.fromEntries(config), ...((next.hooks as object | undefined) ?? {}) } };
}

export const mergeGeminiHooks = (settings: Settings, bin?: string) =>
  overEvents(settings, (s) => mergeHooks(s, geminiHooks(bin) as ClaudeHooks));
export const unmergeGeminiHooks = (settings: Settings) => overEvents(settings, unmergeHooks);

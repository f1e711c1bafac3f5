// The Claude Code settings file a scope names, read and written safely: a missing file is {},
// a file that is not a JSON object is refused (we never overwrite what we cannot read), and a
// write goes to a temporary file renamed over the old one, so Claude Code never reads half of it.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Settings } from "./settings-merge";

export const SCOPES = ["local", "project", "user"] as const;
export type Scope = (typeof SCOPES)[number];

/** local: this checkout, not committed; project: committed, for everyone; user: every project of this user. */
export function settingsPath(scope: Scope, o: { cwd: string; home: string }): string {
  if (scope === "user") return join(o.home, ".claude", "settings.json");
  return join(o.cwd, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

export class UnreadableSettings extends Error {}

/** The file's text ("" when it does not exist) and its content. */
export function readSettings(path: string): { text: string; settings: Settings } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { text: "", settings: {} };
    throw new UnreadableSettings(`cannot read ${path}: ${(e as Error).message}`);
  }
  if (!text.trim()) return { text, settings: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UnreadableSettings(`${path} is not valid JSON (${(e as Error).message}); fix or remove it first, nothing was changed`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new UnreadableSettings(`${path} does not hold a JSON object; nothing was changed`);
  return { text, settings: value as Settings };
}

export const formatSettings = (s: Settings) => `${JSON.stringify(s, null, 2)}\n`;

export function writeSettings(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  const mode = statSync(path, { throwIfNoEntry: false })?.mode ?? 0o644;
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: mode & 0o777 });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

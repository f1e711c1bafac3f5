// The Claude Code settings file a scope names, read and written safely: a missing file is {},
// a file that is not a JSON object is refused (we never overwrite what we cannot read), and a
// write goes to a temporary file renamed over the old one, so Claude Code never reads half of it
// (through a symlink to its target: the link stays).
import { lstatSync, mkdirSync, readFileSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { writeFileAtomic } from "./write-atomic";
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
    throw new UnreadableSettings(
      `${path} is not valid JSON (${(e as Error).message}); fix or remove it first, nothing was changed`,
    );
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new UnreadableSettings(`${path} does not hold a JSON object; nothing was changed`);
  return { text, settings: value as Settings };
}

export const formatSettings = (s: Settings) => `${JSON.stringify(s, null, 2)}\n`;

export function writeSettings(path: string, text: string) {
  const target = linkTarget(path);
  mkdirSync(dirname(target), { recursive: true });
  const mode = statSync(target, { throwIfNoEntry: false })?.mode ?? 0o644;
  writeFileAtomic(target, text, mode & 0o777);
}

/** A settings.json that is a symlink (dotfiles kept in a repository) is written through to its target, and stays a link. */
function linkTarget(path: string): string {
  if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) return path;
  try {
    return realpathSync(path);
  } catch {
    return resolve(dirname(path), readlinkSync(path)); // a link to a file not made yet
  }
}

// Our hook entries in and out of a Claude Code settings object, purely: everything else in the
// file (the user's own hooks, permissions, env…) is kept as it was, in its order. Ours are told
// apart by isPodwatchHook (the hook route's URL, or a `podwatch hook` command), so installing
// twice changes nothing and uninstalling removes ours alone.
import { isPodwatchHook, type ClaudeHooks } from "./settings-snippet";

export type Settings = Record<string, unknown>;
type Group = { matcher?: unknown; hooks?: unknown; [k: string]: unknown };

/** The settings file is JSON but not shaped as Claude Code reads it: we refuse to guess. */
export class SettingsShapeError extends Error {}

function hooksOf(settings: Settings): Record<string, unknown> {
  const h = settings.hooks;
  if (h === undefined) return {};
  if (!h || typeof h !== "object" || Array.isArray(h))
    throw new SettingsShapeError(`"hooks" must be an object of hook events`);
  return h as Record<string, unknown>;
}

function groupsOf(hooks: Record<string, unknown>, event: string): Group[] {
  const g = hooks[event];
  if (g === undefined) return [];
  if (!Array.isArray(g) || g.some((x) => !x || typeof x !== "object" || Array.isArray(x)))
    throw new SettingsShapeError(`"hooks.${event}" must be a list of matcher groups`);
  return g as Group[];
}

/** The groups without our hooks; a group left with no hook is dropped (it was ours). */
function withoutOurs(groups: Group[]): Group[] {
  const out: Group[] = [];
  for (const group of groups) {
    if (!Array.isArray(group.hooks)) {
      out.push(group); // not ours to judge
      continue;
    }
    const kept = (group.hooks as unknown[]).filter(
      (h) => !(h && typeof h === "object" && isPodwatchHook(h as Parameters<typeof isPodwatchHook>[0])),
    );
    if (kept.length === group.hooks.length) out.push(group);
    else if (kept.length) out.push({ ...group, hooks: kept });
  }
  return out;
}

/** Removes every podwatch hook; events and a `hooks` object left empty are removed too. */
export function unmergeHooks(settings: Settings): Settings {
  const hooks = hooksOf(settings);
  if (settings.hooks === undefined) return settings;
  const next: Record<string, unknown> = {};
  for (const event of Object.keys(hooks)) {
    const groups = withoutOurs(groupsOf(hooks, event));
    if (groups.length || !(hooks[event] as unknown[]).length) next[event] = groups;
  }
  const { hooks: _old, ...rest } = settings;
  return Object.keys(next).length ? { ...settings, hooks: next } : rest;
}

/** Our entries in place of any earlier ones of ours, after the user's own in each event. */
export function mergeHooks(settings: Settings, ours: ClaudeHooks): Settings {
  const base = unmergeHooks(settings);
  const hooks: Record<string, unknown> = { ...hooksOf(base) };
  for (const [event, groups] of Object.entries(ours))
    hooks[event] = [...groupsOf(hooks, event), ...(groups ?? [])];
  return { ...base, hooks };
}

/** Adds extra hooks of ours to events (the usage reader beside the HTTP hooks). */
export function withExtra(ours: ClaudeHooks, extra: ClaudeHooks): ClaudeHooks {
  const out: ClaudeHooks = { ...ours };
  for (const [event, groups] of Object.entries(extra) as [
    keyof ClaudeHooks,
    NonNullable<ClaudeHooks[keyof ClaudeHooks]>,
  ][])
    out[event] = [...(out[event] ?? []), ...groups];
  return out;
}

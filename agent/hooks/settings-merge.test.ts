import { describe, expect, it } from "vitest";
import { mergeHooks, SettingsShapeError, unmergeHooks, withExtra } from "./settings-merge";
import { commandHooks, httpHooks } from "./settings-snippet";

const userHooks = {
  PreToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write" }] }],
  Stop: [{ hooks: [{ type: "command", command: "say done" }] }],
};
const userSettings = { permissions: { allow: ["Bash(npm test:*)"] }, env: { FOO: "1" }, hooks: userHooks };

describe("merging podwatch's hooks into Claude Code settings", () => {
  it("adds every event's entry to an empty file", () => {
    const merged = mergeHooks({}, commandHooks());
    expect(merged).toEqual({ hooks: commandHooks() });
  });

  it("keeps the user's settings and hooks, ours after theirs", () => {
    const merged = mergeHooks(userSettings, commandHooks());
    expect(merged.permissions).toEqual(userSettings.permissions);
    expect(merged.env).toEqual({ FOO: "1" });
    const hooks = merged.hooks as Record<string, unknown[]>;
    expect(hooks.PreToolUse).toEqual([
      userHooks.PreToolUse[0],
      { matcher: "*", hooks: [{ type: "command", command: "podwatch hook", timeout: 600 }] },
    ]);
    expect(hooks.Stop).toEqual([
      userHooks.Stop[0],
      { hooks: [{ type: "command", command: "podwatch hook", timeout: 10 }] },
    ]);
  });

  it("is idempotent, and switching forms replaces ours instead of adding", () => {
    const once = mergeHooks(userSettings, commandHooks());
    expect(mergeHooks(once, commandHooks())).toEqual(once);
    expect(JSON.stringify(mergeHooks(once, commandHooks()))).toBe(JSON.stringify(once)); // same key order too
    const http = withExtra(httpHooks("http://127.0.0.1:3000"), {
      Stop: [{ hooks: [{ type: "command", command: "podwatch hook --usage-only", timeout: 10 }] }],
    });
    const switched = mergeHooks(once, http);
    const stop = (switched.hooks as Record<string, { hooks: { type: string; command?: string }[] }[]>).Stop!;
    expect(stop.map((g) => g.hooks.map((h) => h.command ?? h.type))).toEqual([
      ["say done"],
      ["http"],
      ["podwatch hook --usage-only"],
    ]);
    expect(mergeHooks(switched, http)).toEqual(switched);
  });

  it("uninstall removes ours only, and the hooks object when nothing is left", () => {
    expect(unmergeHooks(mergeHooks(userSettings, commandHooks()))).toEqual(userSettings);
    expect(unmergeHooks(mergeHooks({ model: "opus" }, httpHooks("http://x")))).toEqual({ model: "opus" });
    // A group holding the user's hook and ours keeps the user's.
    const mixed = {
      hooks: {
        PostToolUse: [
          {
            matcher: "*",
            hooks: [
              { type: "command", command: "log-it" },
              { type: "command", command: "podwatch hook" },
            ],
          },
        ],
      },
    };
    expect(unmergeHooks(mixed)).toEqual({
      hooks: { PostToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "log-it" }] }] },
    });
    expect(unmergeHooks(userSettings)).toEqual(userSettings);
  });

  it("refuses a hooks section it cannot read", () => {
    expect(() => mergeHooks({ hooks: [] }, commandHooks())).toThrow(SettingsShapeError);
    expect(() => mergeHooks({ hooks: { Stop: { hooks: [] } } }, commandHooks())).toThrow(/hooks.Stop/);
    expect(() => unmergeHooks({ hooks: { Stop: ["x"] } })).toThrow(SettingsShapeError);
  });
});

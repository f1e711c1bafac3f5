import { BLOCK_ON_FAILURE } from "./settings-snippet";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODEX_HOOK_EVENTS, codexHooks, codexHooksPath } from "./codex-hooks";
import { mergeHooks, unmergeHooks } from "./settings-merge";

describe("Codex's hooks.json entries", () => {
  it("every event runs podwatch hook --agent codex; a gated one blocks when podwatch itself fails", () => {
    const hooks = codexHooks();
    expect(Object.keys(hooks)).toEqual([...CODEX_HOOK_EVENTS]);
    expect(hooks.PreToolUse).toEqual([
      {
        hooks: [
          { type: "command", command: `podwatch hook --agent codex ${BLOCK_ON_FAILURE}`, timeout: 600 },
        ],
      },
    ]);
    expect(hooks.PermissionRequest![0]!.hooks[0]).toMatchObject({ timeout: 600 });
    expect(hooks.UserPromptSubmit![0]!.hooks[0]).toEqual({
      type: "command",
      command: "podwatch hook --agent codex",
      timeout: 10,
    });
    expect(hooks.SessionEnd![0]!.hooks[0]).toMatchObject({
      command: "podwatch hook --agent codex --timeout 3",
      timeout: 3,
    });
  });

  it("merges beside the user's own hooks, twice is once, and uninstall leaves theirs", () => {
    const theirs = { matcher: "Bash", hooks: [{ type: "command", command: "./lint.sh", timeout: 5 }] };
    const file = { description: "team hooks", hooks: { PreToolUse: [theirs] } };
    const once = mergeHooks(file, codexHooks("node /opt/podwatch.mjs"));
    expect(mergeHooks(once, codexHooks("node /opt/podwatch.mjs"))).toEqual(once);
    expect((once.hooks as Record<string, unknown[]>).PreToolUse).toHaveLength(2);
    expect(unmergeHooks(once)).toEqual(file);
  });

  it("lives in CODEX_HOME (default ~/.codex), or the project's .codex", () => {
    const where = { cwd: "/w/shop", home: "/home/dev" };
    expect(codexHooksPath("user", where)).toBe("/home/dev/.codex/hooks.json");
    expect(codexHooksPath("user", { ...where, codexHome: "/srv/codex/" })).toBe("/srv/codex/hooks.json");
    expect(codexHooksPath("project", where)).toBe("/w/shop/.codex/hooks.json");
  });
});

describe("the Codex guide's hooks.json", () => {
  it("is exactly what hooks install --agent codex writes into an empty file", () => {
    const guide = readFileSync(join(import.meta.dirname, "..", "..", "docs", "agents", "codex.md"), "utf8");
    const blocks = [...guide.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks).toEqual([mergeHooks({}, codexHooks())]);
  });
});

import { describe, expect, it } from "vitest";
import {
  CLAUDE_HOOK_EVENTS,
  commandHooks,
  httpHooks,
  isPodwatchHook,
  settingsWith,
} from "./settings-snippet";

describe("the Claude Code hook entries", () => {
  it("posts every event to the hook route with the token from the environment, tool events matching every tool", () => {
    const hooks = httpHooks("https://pw.example.com/");
    expect(Object.keys(hooks)).toEqual([...CLAUDE_HOOK_EVENTS]);
    expect(hooks.PreToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "http",
            url: "https://pw.example.com/api/v1/hooks/claude-code",
            headers: { Authorization: "Bearer $PODWATCH_TOKEN" },
            allowedEnvVars: ["PODWATCH_TOKEN"],
            timeout: 600,
          },
        ],
      },
    ]);
    // A Stop may be held for a person's Resume: it waits as long as a gated call.
    expect(hooks.Stop).toEqual([{ hooks: [expect.objectContaining({ type: "http", timeout: 600 })] }]);
    expect(hooks.SubagentStop).toEqual([{ hooks: [expect.objectContaining({ type: "http", timeout: 10 })] }]);
    expect(JSON.stringify(settingsWith(hooks))).not.toContain("undefined");
  });
  it("runs podwatch hook for command hooks, gated events waiting longest", () => {
    const hooks = commandHooks();
    expect(hooks.PermissionRequest).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: "podwatch hook", timeout: 600 }] },
    ]);
    expect(hooks.SessionEnd).toEqual([
      { hooks: [{ type: "command", command: "podwatch hook", timeout: 10 }] },
    ]);
  });
  it("tells its own entries from the user's", () => {
    expect(isPodwatchHook(httpHooks("http://localhost:3000").Stop![0]!.hooks[0]!)).toBe(true);
    expect(isPodwatchHook({ type: "http", url: "http://x/api/v1/hooks/claude-code?wait=60" })).toBe(true);
    expect(isPodwatchHook({ type: "command", command: "podwatch hook" })).toBe(true);
    expect(isPodwatchHook({ type: "command", command: "node /opt/pw/agent/bin/podwatch.mjs hook" })).toBe(
      true,
    );
    expect(isPodwatchHook({ type: "command", command: "npx prettier --write" })).toBe(false);
    expect(isPodwatchHook({ type: "command", command: "podwatch hooks install" })).toBe(false);
    expect(isPodwatchHook({ type: "http", url: "http://x/other" })).toBe(false);
  });
});

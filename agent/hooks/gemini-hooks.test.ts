import { describe, expect, it } from "vitest";
import { geminiSettingsPath, mergeGeminiHooks, unmergeGeminiHooks } from "./gemini-hooks";
import { geminiHooks } from "./gemini-settings-snippet";
import { geminiAnswer } from "./gemini-dialect";
import { denyAnswer, unreachableAnswer } from "./unreachable-rule";
import { dialectOf, CLAUDE_CODE_DIALECT } from "./hook-dialect";

describe("Gemini CLI's settings", () => {
  it("user scope honours GEMINI_CLI_HOME, project is the folder's", () => {
    expect(geminiSettingsPath("user", { cwd: "/w", home: "/h" })).toBe("/h/.gemini/settings.json");
    expect(geminiSettingsPath("user", { cwd: "/w", home: "/h", geminiHome: "/g" })).toBe(
      "/g/.gemini/settings.json",
    );
    expect(geminiSettingsPath("project", { cwd: "/w", home: "/h", geminiHome: "/g" })).toBe(
      "/w/.gemini/settings.json",
    );
  });

  it("every hook runs podwatch hook --agent gemini; BeforeTool blocks when it fails, with a hold-sized timeout in ms", () => {
    const h = geminiHooks() as Record<
      string,
      { matcher?: string; hooks: { command: string; timeout: number }[] }[]
    >;
    expect(Object.keys(h).sort()).toEqual(
      [
        "AfterAgent",
        "AfterTool",
        "BeforeAgent",
        "BeforeTool",
        "Notification",
        "SessionEnd",
        "SessionStart",
      ].sort(),
    );
    const before = h.BeforeTool![0]!;
    expect(before.matcher).toBe("*");
    expect(before.hooks[0]!.command).toMatch(
      /^podwatch hook --agent gemini \|\| \{ echo .* >&2; exit 2; \}$/,
    );
    expect(before.hooks[0]!.timeout).toBe(600_000);
    expect(h.AfterTool![0]!.hooks[0]!.command).toBe("podwatch hook --agent gemini");
    expect(h.SessionStart![0]!.hooks[0]!.timeout).toBe(10_000);
  });

  it("merges beside the user's own hooks and Gemini's hook settings, idempotently; uninstall removes ours alone", () => {
    const mine = { matcher: "write_file", hooks: [{ type: "command", command: "./lint.sh" }] };
    const settings = {
      model: { name: "gemini-2.5-pro" },
      hooks: { enabled: true, disabled: ["old-hook"], BeforeTool: [mine] },
    };
    const once = mergeGeminiHooks(settings);
    expect(mergeGeminiHooks(once)).toEqual(once);
    const hooks = once.hooks as Record<string, unknown>;
    expect(hooks.enabled).toBe(true);
    expect(hooks.disabled).toEqual(["old-hook"]);
    expect((hooks.BeforeTool as unknown[])[0]).toEqual(mine);
    expect((hooks.BeforeTool as unknown[]).length).toBe(2);
    expect(unmergeGeminiHooks(once)).toEqual(settings);
    expect(unmergeGeminiHooks(mergeGeminiHooks({}))).toEqual({});
  });
});

describe("podwatch hook --agent gemini", () => {
  it("names its dialect; an unknown agent is none", () => {
    expect(dialectOf([])).toBe(CLAUDE_CODE_DIALECT);
    expect(dialectOf(["--agent", "gemini"])?.route).toBe("/api/v1/hooks/gemini-cli");
    expect(dialectOf(["--agent=gemini-cli"])?.gated.has("BeforeTool")).toBe(true);
    expect(dialectOf(["--agent", "vim"])).toBeNull();
  });

  it("writes the hook's own denials as Gemini's decision, and passes Gemini's own answers", () => {
    expect(JSON.parse(geminiAnswer(denyAnswer("BeforeTool", "no pod")))).toEqual({
      decision: "deny",
      reason: "no pod",
    });
    const closed = JSON.parse(geminiAnswer(unreachableAnswer("BeforeTool", "closed", "down")));
    expect(closed.decision).toBe("deny");
    expect(closed.reason).toContain("podwatch is unreachable");
    expect(geminiAnswer(unreachableAnswer("BeforeTool", "open", "down"))).toBe("{}");
    expect(geminiAnswer('{"decision":"deny","reason":"a person said no"}')).toBe(
      '{"decision":"deny","reason":"a person said no"}',
    );
    // A person's message for the model, as the server writes it for Gemini, reaches Gemini whole.
    const context = '{"hookSpecificOutput":{"additionalContext":"write the tests first"}}';
    expect(geminiAnswer(context)).toBe(context);
  });
});

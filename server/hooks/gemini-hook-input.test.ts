import { describe, expect, it } from "vitest";
import { ZEventInput } from "../domain/events/event-schemas";
import { hookEvents, type HookContext } from "./claude-code-events";
import { parseHookInput } from "./hook-input";
import { claudeShapeOfGemini } from "./gemini-hook-input";
import { GEMINI_CLI_DOOR, geminiOutputOf } from "./gemini-hook-output";

const ctx: HookContext = { podId: "pod-1", memberId: "gemini", recordPrompts: true, agent: "gemini-cli" };
const SESSION = "0b8e3f52-6c1d-4a7e-9f20-3d5c8a1b7e64";
/** The fields Gemini CLI 0.61 puts in every hook input (createBaseInput in its hook event handler). */
const base = (event: string) => ({
  session_id: SESSION,
  transcript_path: `/home/dev/.gemini/tmp/shop/chats/session-${SESSION}.json`,
  cwd: "/home/dev/shop",
  hook_event_name: event,
  timestamp: "2026-11-25T10:00:00.000Z",
});
const shell = { command: "npm test", description: "run the tests" };

/** The Gemini hook's events on the tape, through the Claude Code parser and mapper. */
function eventsOf(gemini: Record<string, unknown>) {
  const input = parseHookInput(claudeShapeOfGemini(gemini));
  return input ? hookEvents(input, ctx).map((e) => ZEventInput.parse(e)) : null;
}
const one = (gemini: Record<string, unknown>) => {
  const events = eventsOf(gemini)!;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ actor: "gemini", sessionId: SESSION });
  return events[0]! as { type: string; body: Record<string, unknown> };
};

describe("Gemini CLI hooks → tape events", () => {
  it("SessionStart says the session is Gemini CLI's; SessionEnd ends it", () => {
    expect(one({ ...base("SessionStart"), source: "startup" })).toMatchObject({
      type: "session.started",
      body: { via: "gemini-cli", source: "startup", cwd: "/home/dev/shop" },
    });
    expect(one({ ...base("SessionEnd"), reason: "exit" })).toMatchObject({
      type: "session.ended",
      body: { reason: "exit" },
    });
  });

  it("BeforeAgent is the prompt", () => {
    expect(one({ ...base("BeforeAgent"), prompt: "fix the failing test" })).toMatchObject({
      type: "prompt.submitted",
      body: { chars: 20, text: "fix the failing test" },
    });
  });

  it("BeforeTool and AfterTool are one tool call, started then succeeded, joined by tool and input", () => {
    const pre = one({ ...base("BeforeTool"), tool_name: "run_shell_command", tool_input: shell });
    const post = one({
      ...base("AfterTool"),
      tool_name: "run_shell_command",
      tool_input: shell,
      tool_response: { llmContent: "Output: 3 passed", returnDisplay: "3 passed" },
    });
    expect(pre).toMatchObject({ type: "tool.call", body: { tool: "run_shell_command", phase: "started" } });
    expect(post).toMatchObject({
      type: "tool.call",
      body: { tool: "run_shell_command", phase: "succeeded", output: "3 passed" },
    });
    expect(post.body.toolUseId).toBe(pre.body.toolUseId);
    expect(pre.body.input).toContain("npm test");
  });

  it("an AfterTool with an error is a failed call, with the error's message", () => {
    const failed = one({
      ...base("AfterTool"),
      tool_name: "read_file",
      tool_input: { file_path: "/etc/shadow" },
      tool_response: {
        llmContent: "",
        returnDisplay: "",
        error: { message: "permission denied", type: "x" },
      },
    });
    expect(failed).toMatchObject({
      type: "tool.call",
      body: { phase: "failed", error: "permission denied" },
    });
  });

  it("AfterAgent's answer is the turn's report; a Notification keeps its message, not its details", () => {
    expect(one({ ...base("AfterAgent"), prompt: "p", prompt_response: "All tests pass." })).toMatchObject({
      type: "note",
      body: { kind: "STATUS", text: "All tests pass." },
    });
    const n = one({
      ...base("Notification"),
      notification_type: "ToolPermission",
      message: "Tool run_shell_command requires confirmation",
      details: { command: "rm -rf build" },
    });
    expect(n).toMatchObject({
      type: "agent.notified",
      body: { message: "Tool run_shell_command requires confirmation", notificationType: "ToolPermission" },
    });
    expect(JSON.stringify(n.body)).not.toContain("rm -rf");
  });

  it("Gemini's other events store nothing, even one named like a Claude Code event it does not map to", () => {
    expect(eventsOf({ ...base("BeforeModel"), llm_request: {} })).toBeNull();
    expect(eventsOf({ ...base("PreCompress"), trigger: "auto" })).toBeNull();
    expect(claudeShapeOfGemini({ ...base("AfterModel") })).toMatchObject({
      hook_event_name: "GeminiCli.AfterModel",
    });
  });

  it("a body that is not a hook input reaches the parser as it is (its 400)", () => {
    expect(() => parseHookInput(claudeShapeOfGemini([1]))).toThrow();
    expect(() => parseHookInput(claudeShapeOfGemini({ session_id: SESSION }))).toThrow();
    expect(() => parseHookInput(claudeShapeOfGemini({ ...base("BeforeTool"), tool_name: 7 }))).toThrow();
  });
});

describe("answers in Gemini CLI's shape", () => {
  it("a decision is Gemini's top-level decision and reason; no opinion is {}", () => {
    expect(
      geminiOutputOf({
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: "no",
        },
      }),
    ).toEqual({ decision: "deny", reason: "no" });
    expect(
      geminiOutputOf({
        hookSpecificOutput: {
          hookEventName: "PermissionRequest",
          decision: { behavior: "allow", message: "ok" },
        },
      }),
    ).toEqual({ decision: "allow", reason: "ok" });
    expect(geminiOutputOf({})).toEqual({});
  });

  it("the door gates BeforeTool alone, and answers an unchecked one as Gemini reads it", () => {
    expect([...GEMINI_CLI_DOOR.gating]).toEqual(["BeforeTool"]);
    expect(GEMINI_CLI_DOOR.output("BeforeTool", { decision: "deny", reason: "down" })).toEqual({
      decision: "deny",
      reason: "down",
    });
    expect(GEMINI_CLI_DOOR.output("BeforeTool", null)).toEqual({});
  });
});

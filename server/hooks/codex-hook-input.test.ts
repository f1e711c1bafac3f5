import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ZEventInput } from "../domain/events/event-schemas";
import { hookEvents, type HookContext } from "./claude-code-events";
import { codexHookInput } from "./codex-hook-input";
import { parseHookInput } from "./hook-input";

const ctx: HookContext = { podId: "pod-1", memberId: "codex", recordPrompts: true, agent: "codex" };
const SESSION = "01a2162c-78a6-7d81-8013-6da4ea1a503a";
const recorded = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "codex", `${name}.json`), "utf8"));
const eventsOf = (body: Record<string, unknown>) => {
  const input = parseHookInput(codexHookInput(body));
  return input ? hookEvents(input, ctx).map((e) => ZEventInput.parse(e)) : null;
};
const one = (body: Record<string, unknown>) => {
  const events = eventsOf(body)!;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ actor: "codex", sessionId: SESSION });
  return events[0]! as { type: string; body: Record<string, unknown>; id: string };
};

describe("Codex hooks → tape events", () => {
  it("a session opens as Codex's, with its model and folder", () => {
    expect(one(recorded("session-start"))).toMatchObject({
      type: "session.started",
      body: { via: "codex", source: "startup", model: "gpt-5.5", cwd: "/home/dev/shop" },
    });
  });

  it("the prompt, and the shell call's start and end joined by its call id", () => {
    expect(one(recorded("user-prompt-submit"))).toMatchObject({
      type: "prompt.submitted",
      body: { text: "make a file" },
    });
    const started = one(recorded("pre-tool-use-bash"));
    const ended = one(recorded("post-tool-use-bash"));
    expect(started).toMatchObject({
      type: "tool.call",
      body: { toolUseId: "call_1", tool: "Bash", phase: "started", input: "touch ran.txt" },
    });
    expect(ended).toMatchObject({ type: "tool.call", body: { toolUseId: "call_1", phase: "succeeded" } });
  });

  it("Stop reports the turn's last message as a STATUS note; SessionEnd ends the session", () => {
    expect(one(recorded("stop"))).toMatchObject({ type: "note", body: { kind: "STATUS", text: "done" } });
    expect(one(recorded("session-end"))).toMatchObject({ type: "session.ended" });
  });

  it("a null where Claude Code leaves a key out (an ephemeral session's transcript) is left out", () => {
    const body = { ...recorded("session-start"), transcript_path: null };
    expect(() => parseHookInput(body)).toThrow();
    expect(one(body)).toMatchObject({ type: "session.started" });
  });

  it("what is not an object passes through for the parse to refuse", () => {
    expect(codexHookInput([1])).toEqual([1]);
    expect(codexHookInput("x")).toBe("x");
    expect(codexHookInput(null)).toBe(null);
  });
});

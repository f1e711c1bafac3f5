import { describe, expect, it } from "vitest";
import { ZEventInput } from "../domain/events/event-schemas";
import { hookEvents, STOPPED_SILENT, type HookContext } from "./claude-code-events";
import { Tape } from "../testing/reducer-tape";
import { parseHookInput } from "./hook-input";
import { HOOK_FIXTURES, readHookFixture, type HookFixture } from "./fixtures";
import { AppError } from "../domain/errors";
import { childSessionId, inSubagentSession } from "./subagent-session";

const ctx: HookContext = { podId: "pod-1", memberId: "claude", recordPrompts: true, agent: "claude-code" };
const SESSION = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
/** The fixture's events, parsed by the tape's own schema (so defaults and bounds apply). */
const eventsOf = (
  name: HookFixture,
  c: HookContext = ctx,
  change: (h: Record<string, unknown>) => void = () => {},
) => {
  const h = readHookFixture(name);
  change(h);
  const input = parseHookInput(h);
  return input ? hookEvents(input, c).map((e) => ZEventInput.parse(e)) : null;
};
const one = (name: HookFixture, c?: HookContext, change?: (h: Record<string, unknown>) => void) => {
  const events = eventsOf(name, c, change)!;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ actor: "claude", sessionId: SESSION });
  return events[0]! as { type: string; body: Record<string, unknown>; id: string };
};

describe("Claude Code hooks → tape events", () => {
  it("SessionStart, SessionEnd", () => {
    expect(one("session-start")).toMatchObject({
      type: "session.started",
      body: {
        via: "claude-code",
        source: "startup",
        model: "claude-sonnet-4-5-20250929",
        cwd: "/home/dev/shop-api",
        permissionMode: "default",
      },
    });
    expect(one("session-end")).toMatchObject({
      type: "session.ended",
      body: { reason: "prompt_input_exit" },
    });
  });

  it("a command hook's own time (podwatch_hook_ts) is the event's ts, so a spooled hook replayed later keeps it; a malformed one is ignored", () => {
    const at = "2026-11-23T05:00:00.000Z";
    expect(one("session-end", ctx, (h) => (h.podwatch_hook_ts = at))).toMatchObject({ ts: at });
    expect(one("session-end", ctx, (h) => (h.podwatch_hook_ts = "yesterday"))).not.toHaveProperty("ts");
  });

  it("UserPromptSubmit keeps the text only when the pod records prompts", () => {
    const prompt = readHookFixture("user-prompt-submit").prompt as string;
    expect(one("user-prompt-submit")).toMatchObject({
      type: "prompt.submitted",
      body: { text: prompt, chars: prompt.length },
    });
    const off = one("user-prompt-submit", { ...ctx, recordPrompts: false });
    expect(off.body).toEqual({ chars: prompt.length });
    const long = one("user-prompt-submit", ctx, (h) => (h.prompt = "p".repeat(9000)));
    expect([(long.body.text as string).length, long.body.chars]).toEqual([2000, 9000]);
  });

  it("tool calls: pre and post joined by tool_use_id, bounded summaries, duration when given", () => {
    const pre = one("pre-tool-use-read");
    expect(pre).toMatchObject({
      type: "tool.call",
      body: {
        toolUseId: "toolu_01RfUq8mXb3nT2kLw9sVd4Ae",
        tool: "Read",
        phase: "started",
        input: "src/routes/orders.ts",
      },
    });
    const post = one("post-tool-use-read");
    expect(post.body).toMatchObject({
      toolUseId: "toolu_01RfUq8mXb3nT2kLw9sVd4Ae",
      phase: "succeeded",
      output: "/home/dev/shop-api/src/routes/orders.ts (8 lines)",
    });
    expect(post.body.durationMs).toBeUndefined();
    expect(post.id).not.toBe(pre.id);
    const bash = one("post-tool-use-bash");
    expect(bash.body).toMatchObject({ tool: "Bash", input: "npm test -- orders", durationMs: 2315 });
    expect(bash.body.output).toContain("Tests  6 passed (6)");
    const huge = one(
      "post-tool-use-bash",
      ctx,
      (h) => ((h.tool_response as { stdout: string }).stdout = "x".repeat(1_500_000)),
    );
    expect((huge.body.output as string).length).toBe(2000);
    expect(one("post-tool-use-failure").body).toMatchObject({
      phase: "failed",
      interrupted: false,
      error: expect.stringContaining("no-unused-vars"),
    });
  });

  it("a tool call without tool_use_id still joins its pre and post", () => {
    const drop = (h: Record<string, unknown>) => delete h.tool_use_id;
    const pre = one("pre-tool-use-bash", ctx, drop);
    const post = one("post-tool-use-bash", ctx, drop);
    expect(pre.body.toolUseId).toMatch(/^input-[0-9a-f]{24}$/);
    expect(post.body.toolUseId).toBe(pre.body.toolUseId);
  });

  it("notifications, subagents, compaction", () => {
    expect(one("notification")).toMatchObject({
      type: "agent.notified",
      body: {
        message: "Claude needs your permission to use Bash",
        title: "Permission needed",
        notificationType: "permission_prompt",
      },
    });
    expect(one("pre-compact")).toMatchObject({ type: "session.compacted", body: { trigger: "auto" } });
  });

  it("a subagent's start and stop are said in the parent's session, and open and close its own under it", () => {
    const child = `${SESSION}/a7c41e09`;
    expect(eventsOf("subagent-start")).toEqual([
      expect.objectContaining({
        sessionId: SESSION,
        type: "subagent",
        body: expect.objectContaining({ phase: "started", agentId: "a7c41e09", agentType: "Explore" }),
      }),
      expect.objectContaining({
        sessionId: child,
        type: "session.started",
        body: expect.objectContaining({
          via: "claude-code",
          source: "subagent",
          parentSessionId: SESSION,
          agentType: "Explore",
        }),
      }),
    ]);
    const [stopped, ended] = eventsOf("subagent-stop")!;
    expect(stopped).toMatchObject({
      sessionId: SESSION,
      type: "subagent",
      body: { phase: "stopped", agentId: "a7c41e09", summary: expect.stringContaining("list-orders.ts") },
    });
    expect(ended).toMatchObject({
      sessionId: child,
      type: "session.ended",
      body: { reason: "subagent stopped" },
    });
    expect(new Set([...eventsOf("subagent-start")!, stopped!, ended!].map((e) => e.id)).size).toBe(4);
  });

  it("what a subagent does moves to its session; the session's own hooks stay", () => {
    const pre = { ...readHookFixture("pre-tool-use-read"), agent_id: "a7c41e09", agent_type: "Explore" };
    const { input, subagent } = inSubagentSession(parseHookInput(pre)!);
    expect(input.session_id).toBe(`${SESSION}/a7c41e09`);
    expect(subagent).toEqual({ parentSessionId: SESSION, agentType: "Explore" });
    expect(hookEvents(input, ctx)[0]).toMatchObject({ sessionId: `${SESSION}/a7c41e09`, type: "tool.call" });
    expect(inSubagentSession(parseHookInput(readHookFixture("pre-tool-use-read"))!).subagent).toBeNull();
    expect(inSubagentSession(parseHookInput(readHookFixture("subagent-stop"))!).input.session_id).toBe(
      SESSION,
    );
    // A long pair of ids is hashed into the id bound, the same each time.
    const long = childSessionId("s".repeat(200), "a".repeat(200));
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long).toBe(childSessionId("s".repeat(200), "a".repeat(200)));
    expect(long).not.toBe(childSessionId("s".repeat(200), "b".repeat(200)));
  });

  it("Stop: a checkpoint when shaped so, else a STATUS note, which says so when there is no message", () => {
    expect(one("stop-checkpoint")).toMatchObject({
      type: "checkpoint",
      body: {
        completed: expect.arrayContaining(["listOrders uses take/skip and returns the total"]),
        next: ["Document the new query parameters in docs/api.md"],
        blocked: ["Pushing the branch needs approval"],
      },
    });
    expect(one("stop-note")).toMatchObject({
      type: "note",
      body: { kind: "STATUS", text: expect.stringContaining("all 6 pass") },
    });
    for (const silent of [
      (h: Record<string, unknown>) => delete h.last_assistant_message,
      (h: Record<string, unknown>) => (h.last_assistant_message = "   "),
    ])
      expect(one("stop-note", ctx, silent)).toMatchObject({
        type: "note",
        body: { kind: "STATUS", text: STOPPED_SILENT },
      });
  });

  it("a Stop without a final message still ends the session's turn (it no longer reads as working)", () => {
    const t = Tape.team();
    const apply = (name: HookFixture, change?: (h: Record<string, unknown>) => void) => {
      for (const e of eventsOf(name, { ...ctx, memberId: "impl" }, change)!)
        t.add(e.type, e.actor, e.body, { sessionId: e.sessionId });
    };
    apply("user-prompt-submit");
    apply("pre-tool-use-bash");
    expect(t.state.sessions[SESSION]!.turn).toMatchObject({ open: true, tool: { name: "Bash" } });
    apply("stop-note", (h) => delete h.last_assistant_message);
    expect(t.state.sessions[SESSION]!.turn).toMatchObject({ open: false, tool: null });
  });

  it("PermissionRequest and unknown events add nothing", () => {
    expect(eventsOf("permission-request")).toEqual([]);
    expect(eventsOf("unknown-event")).toBeNull();
  });

  it("ids: the same hook gives the same id; another pod, member or session another", () => {
    for (const name of HOOK_FIXTURES) {
      const first = eventsOf(name);
      expect(eventsOf(name)).toEqual(first);
    }
    const id = one("user-prompt-submit").id;
    expect(one("user-prompt-submit", { ...ctx, podId: "pod-2" }).id).not.toBe(id);
    expect(eventsOf("user-prompt-submit", { ...ctx, memberId: "other" })![0]!.id).not.toBe(id);
    expect(eventsOf("user-prompt-submit", ctx, (h) => (h.session_id = "s2"))![0]!.id).not.toBe(id);
    expect(one("user-prompt-submit", ctx, (h) => (h.prompt = "another prompt")).id).not.toBe(id);
  });

  it("malformed input is a 400 that says what is wrong; unknown fields are ignored", () => {
    const refused = (body: unknown) => {
      try {
        parseHookInput(body);
      } catch (e) {
        return [(e as AppError).status, (e as AppError).message];
      }
      return null;
    };
    expect(refused({})).toEqual([400, expect.stringContaining("hook_event_name")]);
    expect(refused([1])).toEqual([400, expect.any(String)]);
    expect(refused({ ...readHookFixture("pre-tool-use-bash"), session_id: undefined })).toEqual([
      400,
      expect.stringContaining("session_id"),
    ]);
    expect(refused({ ...readHookFixture("pre-tool-use-bash"), tool_name: 42 })).toEqual([
      400,
      expect.stringContaining("tool_name"),
    ]);
    expect(refused({ ...readHookFixture("session-start"), session_id: "s".repeat(201) })).toEqual([
      400,
      expect.stringContaining("session_id"),
    ]);
    expect(refused({ ...readHookFixture("session-start"), brand_new_field: { a: 1 } })).toBeNull();
  });
});

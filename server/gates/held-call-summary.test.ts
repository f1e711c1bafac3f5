import { describe, expect, it } from "vitest";
import { Tape } from "../testing/reducer-tape";
import { notificationActions, openPayload } from "../notify/notification-content";
import { levelAllows } from "../notify/preferences";
import { heldCallSummary } from "./held-call-summary";

function held(tool: string, input: object) {
  const t = Tape.team();
  t.add("session.started", "impl", { via: "claude-code", cwd: "/work/app" }, { sessionId: "s1" });
  t.add("agent.policy.set", "admin", { rules: [{ id: "all", tool: "*", action: "ask" }] });
  t.add("tool.approval.requested", "impl", { requestId: "r1", toolUseId: "tu-1", tool, input: JSON.stringify(input), context: [], deadline: { inMinutes: 5, then: "answer", answer: "deny" } }, { sessionId: "s1" });
  return { state: t.state, item: t.state.inbox["tool:r1"]! };
}

describe("a held tool call in a notification", () => {
  it("says the command, or the path relative to the session's folder, on one bounded line", () => {
    const bash = held("Bash", { command: "git push\n  origin main", description: "push" });
    expect(heldCallSummary(bash.state, bash.item)).toBe("Bash: git push origin main");
    const write = held("Write", { file_path: "/work/app/src/a.ts", content: "x" });
    expect(heldCallSummary(write.state, write.item)).toBe("Write: src/a.ts");
    const long = held("Bash", { command: `echo ${"y".repeat(500)}` });
    expect(heldCallSummary(long.state, long.item)).toHaveLength(160);
    expect(heldCallSummary(long.state, long.item)!.endsWith("…")).toBe(true);
  });

  it("offers Allow once and Deny, reaches people who chose decisions only, and names the call in its body", () => {
    const { state, item } = held("Bash", { command: "rm -rf build" });
    expect(notificationActions(state, item)).toEqual([{ action: "allow", title: "Allow once" }, { action: "deny", title: "Deny" }]);
    expect(levelAllows("decisions", "tool_approval")).toBe(true);
    const payload = openPayload("p1", "Pod", state, item, new Date(item.at));
    expect(payload.body).toBe("Pod · Bash: rm -rf build · waiting since just now");
  });

  it("is nothing for other items", () => {
    const { state } = held("Bash", { command: "ls" });
    expect(heldCallSummary(state, { kind: "escalation", subject: { kind: "escalation", id: "r1" } })).toBeNull();
    expect(heldCallSummary(state, { kind: "tool_approval", subject: { kind: "tool", id: "gone" } })).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { admitAppend, speakerOf, type AppendIdentity } from "./admit-append";

const agent: AppendIdentity = { kind: "agent", tokenId: "t", podId: "p", memberId: "bot" };
const person: AppendIdentity = { kind: "user", userId: "u", email: "ana@x", name: "Ana", isAdmin: false };
const adminToken: AppendIdentity = { kind: "admin-token", label: "ci" };
const scheduler: AppendIdentity = { kind: "system", name: "the deadline scheduler" };
const hookRoute: AppendIdentity = {
  kind: "system",
  name: "the hook route",
  member: { podId: "p", memberId: "bot" },
};

const note = (actor: string) => ({ type: "note", actor, body: { kind: "STATUS", text: "hi" } });
const gated = (actor: string, by: string) => ({
  type: "tool.call",
  actor,
  body: { tool: "Bash", gate: { decision: "allow", by } },
});
const asked = (actor: string) => ({ type: "tool.approval.requested", actor, body: { requestId: "r" } });
const joined = (memberId: string, displayName = "Helper") => ({
  type: "member.joined",
  actor: "ana@x",
  body: { memberId, kind: "agent", displayName },
});
const passed = { type: "deadline.passed", actor: "podwatch", body: {} };

const refusal = (
  as: AppendIdentity,
  events: { type: string; actor: string; body?: unknown }[],
  podId = "p",
) => {
  const v = admitAppend(as, podId, events);
  return v.ok ? "ok" : [v.status, v.code];
};

describe("admitAppend: who may append what", () => {
  it("lets an agent token speak only as its own member, on its own pod", () => {
    expect(refusal(agent, [note("bot")])).toBe("ok");
    expect(refusal(agent, [note("bot"), note("rev")])).toEqual([403, "actor_mismatch"]);
    expect(refusal(agent, [note("bot")], "q")).toEqual([403, "forbidden"]);
  });

  it("refuses an agent's forged gates and approvals, and lets it report its own unreachable rule", () => {
    for (const by of ["policy", "person", "deadline"])
      expect(refusal(agent, [note("bot"), gated("bot", by)])).toEqual([422, "gate_is_podwatchs"]);
    expect(refusal(agent, [asked("bot")])).toEqual([422, "approval_is_podwatchs"]);
    expect(refusal(agent, [gated("bot", "unreachable")])).toBe("ok");
    // Its own "delivery" of a person's interrupt would let its next tool call run unheard.
    const delivered = {
      type: "session.steer.delivered",
      actor: "bot",
      body: { steerId: "s1", sessionId: "sess", via: "PreToolUse", hookId: "h1" },
    };
    expect(refusal(agent, [note("bot"), delivered])).toEqual([422, "delivery_is_podwatchs"]);
    expect(refusal(person, [{ ...delivered, actor: "ana@x" }])).toEqual([422, "delivery_is_podwatchs"]);
    // Its own "held, waiting for you" would page every approver for nothing.
    const held = {
      type: "session.idle.held",
      actor: "bot",
      body: { sessionId: "sess", until: "2026-11-26T12:00:00Z" },
    };
    expect(refusal(agent, [held])).toEqual([422, "idle_hold_is_podwatchs"]);
  });

  it("lets a person speak only as themselves", () => {
    expect(refusal(person, [note("ana@x")])).toBe("ok");
    expect(refusal(person, [note("ana@x"), note("bot")])).toEqual([403, "actor_mismatch"]);
    expect(refusal(person, [gated("ana@x", "person")])).toEqual([422, "gate_is_podwatchs"]);
    expect(refusal(person, [asked("ana@x")])).toEqual([422, "approval_is_podwatchs"]);
  });

  it("lets the admin token name any actor, but never the server", () => {
    expect(refusal(adminToken, [note("bot"), note("anyone"), gated("bot", "policy")])).toBe("ok");
    expect(refusal(adminToken, [note("podwatch")])).toEqual([403, "system_actor"]);
    expect(refusal(adminToken, [note("p\u043Edwatch")])).toEqual([403, "system_actor"]);
  });

  it("keeps the server's voice, types and name from every client, whoever asks", () => {
    for (const as of [agent, person, adminToken]) {
      const actor = as.kind === "agent" ? "bot" : as.kind === "user" ? "ana@x" : "admin:ci";
      expect(refusal(as, [{ ...passed, actor }])).toEqual([403, "system_actor"]);
      expect(refusal(as, [{ ...joined("pod\u200Bwatch"), actor }])).toEqual([422, "reserved_member"]);
      expect(refusal(as, [{ ...joined("helper", "PodWatch"), actor }])).toEqual([422, "reserved_member"]);
    }
  });

  it("refuses callers that may not append at all", () => {
    expect(refusal({ kind: "anonymous" }, [note("x")])).toEqual([401, "unauthenticated"]);
    expect(refusal({ kind: "share", linkId: "l", podId: "p" }, [note("x")])).toEqual([403, "forbidden"]);
  });

  it("lets the server append as itself, and the hook route only for its agent or as podwatch", () => {
    expect(refusal(scheduler, [passed, joined("podwatch")])).toBe("ok");
    expect(
      refusal(hookRoute, [
        gated("bot", "policy"),
        asked("bot"),
        { ...passed, type: "tool.approval.answered" },
      ]),
    ).toBe("ok");
    expect(refusal(hookRoute, [gated("rev", "policy")])).toEqual([403, "actor_mismatch"]);
    expect(refusal(hookRoute, [note("bot")], "q")).toEqual([403, "forbidden"]);
  });

  it("names each identity's speaker as the tape does", () => {
    expect([agent, person, adminToken, scheduler, hookRoute].map(speakerOf)).toEqual([
      "bot",
      "ana@x",
      "admin:ci",
      "podwatch",
      "bot",
    ]);
  });
});

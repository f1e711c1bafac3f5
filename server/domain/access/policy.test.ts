import { describe, expect, it } from "vitest";
import { emptyPodState, type PodState } from "../state/pod-state";
import { Tape } from "../../testing/reducer-tape";
import {
  mayCreatePods,
  maySeeItem,
  podAccess,
  refuseSystemVoice,
  requireAgent,
  requireAppend,
  requireCreatePods,
  requirePodAccess,
  requireSiteAdmin,
  type Identity,
} from "./policy";

const state: PodState = {
  ...emptyPodState(),
  members: {
    "ana@x": {
      memberId: "ana@x",
      kind: "human",
      displayName: "Ana",
      roles: [],
      access: "approver",
      joinedSeq: 1,
    },
    "vic@x": {
      memberId: "vic@x",
      kind: "human",
      displayName: "Vic",
      roles: [],
      access: "viewer",
      joinedSeq: 2,
    },
    bot: { memberId: "bot", kind: "agent", displayName: "Bot", roles: [], access: null, joinedSeq: 3 },
  },
};
const user = (email: string, isAdmin = false): Identity => ({
  kind: "user",
  userId: email,
  email,
  name: email,
  isAdmin,
});
const agent = (podId: string, memberId = "bot"): Identity => ({
  kind: "agent",
  tokenId: "t",
  podId,
  memberId,
});

describe("podAccess", () => {
  it("gives people what their membership says, and nothing without one", () => {
    expect(podAccess(user("ana@x"), "p", state)).toBe("approver");
    expect(podAccess(user("vic@x"), "p", state)).toBe("viewer");
    expect(podAccess(user("zed@x"), "p", state)).toBe("none");
    expect(podAccess(user("bot"), "p", state)).toBe("none"); // an agent's member id is not a person
    expect(podAccess(user("zed@x", true), "p", state)).toBe("admin");
  });
  it("gives a removed person nothing (access.revoked takes them out of the members)", () => {
    const t = new Tape();
    t.add("member.joined", "admin", {
      memberId: "vic@x",
      kind: "human",
      displayName: "Vic",
      access: "approver",
    });
    expect(podAccess(user("vic@x"), "p", t.state)).toBe("approver");
    t.add("access.revoked", "admin", { memberId: "vic@x" });
    expect(podAccess(user("vic@x"), "p", t.state)).toBe("none");
    expect(requirePodAccess(user("vic@x"), "p", t.state, "viewer")).toMatchObject({ ok: false, status: 403 });
    t.add("member.joined", "admin", {
      memberId: "vic@x",
      kind: "human",
      displayName: "Vic",
      access: "viewer",
    });
    expect(podAccess(user("vic@x"), "p", t.state)).toBe("viewer");
  });
  it("lets agents and share links watch their own pod only", () => {
    expect(podAccess(agent("p"), "p", state)).toBe("viewer");
    expect(podAccess(agent("q"), "p", state)).toBe("none");
    expect(podAccess({ kind: "share", linkId: "l", podId: "p" }, "p", state)).toBe("viewer");
    expect(podAccess({ kind: "share", linkId: "l", podId: "q" }, "p", state)).toBe("none");
    expect(podAccess({ kind: "admin-token", label: "ci" }, "p", state)).toBe("admin");
  });
});

describe("verdicts", () => {
  it("401 for anonymous, 403 for too little", () => {
    expect(requirePodAccess({ kind: "anonymous" }, "p", state, "viewer")).toMatchObject({
      ok: false,
      status: 401,
    });
    expect(requirePodAccess(user("vic@x"), "p", state, "approver")).toMatchObject({ ok: false, status: 403 });
    expect(requirePodAccess(user("ana@x"), "p", state, "approver")).toEqual({ ok: true });
    expect(requireSiteAdmin(user("ana@x"))).toMatchObject({ ok: false, status: 403 });
  });
  it("an agent's door: any agent token; 401 anonymous, 403 people and the admin token", () => {
    expect(requireAgent(agent("p"))).toEqual({ ok: true });
    expect(requireAgent({ kind: "anonymous" })).toMatchObject({ ok: false, status: 401 });
    expect(requireAgent(user("ana@x", true))).toMatchObject({ ok: false, status: 403 });
    expect(requireAgent({ kind: "admin-token", label: "ops" })).toMatchObject({ ok: false, status: 403 });
  });
  it("an agent token appends only to its pod, only as its member", () => {
    expect(requireAppend(agent("p"), "p", ["bot"])).toEqual({ ok: true });
    expect(requireAppend(agent("p"), "p", ["bot", "mallory"])).toMatchObject({
      ok: false,
      status: 403,
      code: "actor_mismatch",
    });
    expect(requireAppend(agent("q"), "p", ["bot"])).toMatchObject({ ok: false, status: 403 });
    expect(requireAppend(user("ana@x"), "p", ["ana@x"])).toMatchObject({ ok: false, status: 403 });
    expect(requireAppend({ kind: "admin-token", label: "ci" }, "p", ["anyone"])).toEqual({ ok: true });
    expect(requireAppend({ kind: "share", linkId: "l", podId: "p" }, "p", ["x"])).toMatchObject({
      ok: false,
      status: 403,
    });
  });
});

describe("creating pods", () => {
  it("site admins and people a site admin allowed; nobody else", () => {
    expect(mayCreatePods(user("root@x", true))).toBe(true);
    expect(mayCreatePods({ kind: "admin-token", label: "ci" })).toBe(true);
    expect(mayCreatePods({ ...user("ana@x"), canCreatePods: true } as Identity)).toBe(true);
    expect(mayCreatePods(user("ana@x"))).toBe(false);
    expect(mayCreatePods({ ...user("ana@x"), canCreatePods: false } as Identity)).toBe(false);
    expect(mayCreatePods(agent("p"))).toBe(false);
    expect(mayCreatePods({ kind: "share", linkId: "l", podId: "p" })).toBe(false);
    expect(mayCreatePods({ kind: "anonymous" })).toBe(false);
  });
  it("answers 401 to anonymous callers and 403 to the rest who may not", () => {
    expect(requireCreatePods({ kind: "anonymous" })).toMatchObject({ ok: false, status: 401 });
    expect(requireCreatePods(user("ana@x"))).toMatchObject({ ok: false, status: 403 });
    expect(requireCreatePods(agent("p"))).toMatchObject({ ok: false, status: 403 });
    expect(requireCreatePods({ ...user("ana@x"), canCreatePods: true } as Identity)).toEqual({ ok: true });
  });
});

describe("the server's own voice", () => {
  it("no client speaks as podwatch, appends its event types, or adds a member called podwatch", () => {
    expect(refuseSystemVoice([{ type: "checkpoint", actor: "podwatch" }])).toMatchObject({
      ok: false,
      status: 403,
      code: "system_actor",
    });
    expect(refuseSystemVoice([{ type: "deadline.passed", actor: "ops" }])).toMatchObject({
      ok: false,
      status: 403,
      code: "system_actor",
    });
    expect(
      refuseSystemVoice([
        {
          type: "member.joined",
          actor: "admin",
          body: { memberId: "podwatch", kind: "agent", displayName: "x" },
        },
      ]),
    ).toMatchObject({ ok: false, status: 422, code: "reserved_member" });
    expect(
      refuseSystemVoice([
        { type: "member.joined", actor: "admin", body: { memberId: "bot", kind: "agent", displayName: "x" } },
        { type: "checkpoint", actor: "bot" },
      ]),
    ).toEqual({ ok: true });
  });

  it("in a batch, finds the look-alike actor among many events of the same names (each name judged once)", () => {
    const said = (actor: string) => ({ type: "note", actor });
    const batch = [...Array.from({ length: 500 }, () => said("bot")), said("p\u043Edwatch"), said("bot")];
    const refused = refuseSystemVoice(batch);
    expect(refused).toMatchObject({ ok: false, status: 403, code: "system_actor" });
    expect(refused.ok || refused.message).toContain('"p\\u043Edwatch" reads as podwatch');
    expect(refuseSystemVoice(Array.from({ length: 500 }, () => said("bot")))).toEqual({ ok: true });
  });
});

describe("who sees an inbox item", () => {
  it("a notice only the pod's admins; anything else everyone who sees the pod", () => {
    const notice = { audience: "admins" as const };
    expect((["none", "viewer", "approver", "admin"] as const).map((a) => maySeeItem(a, notice))).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(maySeeItem("viewer", {})).toBe(true);
  });
});

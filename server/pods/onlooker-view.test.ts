import { describe, expect, it } from "vitest";
import type { PodStateView } from "../wire/views";
import { OnlookerNames, onlookerView } from "./onlooker-view";

const member = (memberId: string, kind: "agent" | "human", displayName: string, joinedSeq = 1) => ({
  memberId,
  kind,
  displayName,
  roles: [],
  access: kind === "human" ? ("approver" as const) : null,
  joinedSeq,
});

const view = (extra: Partial<PodStateView>) =>
  ({
    members: [
      member("ana@example.com", "human", "Ana", 2),
      member("bo@example.com", "human", "bo@example.com", 3),
      member("Ana", "agent", "An agent named like her", 4),
    ],
    roleHistory: [{ seq: 3, at: "t", memberId: "ana@example.com", action: "assigned", role: "reviewer" }],
    handoffs: [],
    ...extra,
  }) as unknown as PodStateView;

describe("onlookerView", () => {
  it("names people by their display name, never by their email, wherever their id appears", async () => {
    const out = await onlookerView(view({}));
    expect(JSON.stringify(out)).not.toContain("@");
    expect(out.members.map((m) => m.memberId)).toEqual(["Ana #2", "person #3", "Ana"]);
    expect(out.roleHistory[0]!.memberId).toBe("Ana #2");
  });

  it("names those who have left since the seq it shows as they were then", async () => {
    const now = { members: { "bo@example.com": member("bo@example.com", "human", "Bo", 3) } };
    const out = await onlookerView(view({}), now);
    expect(out.members.map((m) => m.memberId)).toEqual(["Ana #2", "Bo", "Ana"]);
  });

  it("gives a view that names nobody back as it is, and hides the address of someone it no longer names", async () => {
    const agents = [member("impl", "agent", "Implementer")] as PodStateView["members"];
    const v = view({ members: agents, roleHistory: [] });
    expect(await onlookerView(v)).toBe(v);
    expect((await onlookerView(view({ members: agents }))).roleHistory[0]!.memberId).toBe("a person");
  });
});

describe("OnlookerNames", () => {
  it("learns who joins and who leaves from the frames it cleans", () => {
    const names = new OnlookerNames({ members: {} });
    const joined = {
      type: "member.joined",
      seq: 5,
      body: { memberId: "cy@example.com", kind: "human", displayName: "Cy" },
    };
    const said = { type: "note", seq: 6, body: { text: "cy@example.com here" } };
    expect(names.follow([joined, said]).map((e) => e.body)).toEqual([
      { memberId: "Cy", kind: "human", displayName: "Cy" },
      { text: "Cy here" },
    ]);
    const left = { type: "access.revoked", seq: 7, body: { memberId: "cy@example.com" } };
    expect(names.follow([left])[0]!.body).toEqual({ memberId: "a person" });
  });
});

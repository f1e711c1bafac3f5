import { describe, expect, it } from "vitest";
import type { PodStateView } from "../wire/views";
import { onlookerView } from "./onlooker-view";

const member = (memberId: string, kind: "agent" | "human", displayName: string) => ({
  memberId,
  kind,
  displayName,
  roles: [],
  access: kind === "human" ? ("approver" as const) : null,
  joinedSeq: 1,
});

const view = (extra: Partial<PodStateView>) =>
  ({
    members: [
      member("ana@example.com", "human", "Ana"),
      member("bo@example.com", "human", "bo@example.com"),
      member("Ana", "agent", "An agent named like her"),
    ],
    roleHistory: [{ seq: 3, at: "t", memberId: "ana@example.com", action: "assigned", role: "reviewer" }],
    handoffs: [],
    ...extra,
  }) as unknown as PodStateView;

describe("onlookerView", () => {
  it("names people by their display name, never by their email, wherever their id appears", () => {
    const seen = JSON.stringify(onlookerView(view({})));
    expect(seen).not.toContain("@example.com");
    const out = onlookerView(view({}));
    expect(out.members.map((m) => m.memberId)).toEqual(["Ana (1)", "person 2", "Ana"]);
    expect(out.roleHistory[0]!.memberId).toBe("Ana (1)");
  });

  it("leaves a pod without people as it is", () => {
    const v = view({ members: [member("impl", "agent", "Implementer")] as PodStateView["members"] });
    expect(onlookerView(v)).toBe(v);
  });
});

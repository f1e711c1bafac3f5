// GET /api/v1/me: who a credential speaks for. The SDK asks once, so an agent
// configured with only a token knows its member id and pod.
import { z } from "zod";
import type { Identity } from "../domain/access/policy";

export const ZWhoami = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("agent"), memberId: z.string(), podId: z.string() }),
  z.object({ kind: z.literal("user"), email: z.string(), name: z.string(), isAdmin: z.boolean() }),
  z.object({ kind: z.literal("admin-token") }),
  z.object({ kind: z.literal("share"), podId: z.string() }),
]);
export type Whoami = z.infer<typeof ZWhoami>;

export function describeIdentity(id: Exclude<Identity, { kind: "anonymous" }>): Whoami {
  switch (id.kind) {
    case "agent":
      return { kind: "agent", memberId: id.memberId, podId: id.podId };
    case "user":
      return { kind: "user", email: id.email, name: id.name, isAdmin: id.isAdmin };
    case "share":
      return { kind: "share", podId: id.podId };
    case "admin-token":
      return { kind: "admin-token" };
  }
}

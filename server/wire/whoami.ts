// GET /api/v1/me: who a credential speaks for. The SDK asks once, so an agent
// configured with only a token knows its member id and pod.
import type { Identity } from "../domain/access/policy";

export type Whoami =
  | { kind: "agent"; memberId: string; podId: string }
  | { kind: "user"; email: string; name: string; isAdmin: boolean }
  | { kind: "admin-token" }
  | { kind: "share"; podId: string };

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

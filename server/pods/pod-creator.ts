import type { Identity } from "../domain/access/policy";
import { personDisplayName } from "../domain/access/reserved-names";
import type { PodCreator } from "./create-pod";

/** A person joins the pod they create as its admin; the admin token only names itself on the tape. */
export function podCreator(id: Identity): PodCreator {
  if (id.kind === "user")
    return {
      actor: id.email,
      person: { memberId: id.email, displayName: personDisplayName(id.name, id.email) },
      as: id,
    };
  return { actor: id.kind === "admin-token" ? `admin:${id.label}` : "api", as: id };
}

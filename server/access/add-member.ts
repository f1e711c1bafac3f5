// Adds a member to a pod's tape: member.joined, then role.assigned for each
// protocol role. Access levels in `roles` (viewer/approver/admin) become the
// person's pod access.
import { z } from "zod";
import { ACCESS_LEVELS, ROLES, type Access, type TEvent } from "../domain/events/event-schemas";
import { ZId } from "../domain/events/seed-formats";
import { invalid } from "../domain/errors";
import type { AppendEvents } from "../tape/append-events";

export const ZAddMemberRequest = z.object({
  memberId: ZId, // the event schema's one id rule: never a reserved name such as "__proto__"
  kind: z.enum(["agent", "human"]),
  displayName: z.string().trim().min(1).max(200),
  roles: z.array(z.enum([...ROLES, ...ACCESS_LEVELS])).max(20).default([]),
});
export type TAddMemberRequest = z.infer<typeof ZAddMemberRequest>;

export async function addMember(append: AppendEvents, podId: string, actor: string, req: TAddMemberRequest) {
  const access = ACCESS_LEVELS.filter((a) => req.roles.includes(a)).at(-1) as Access | undefined;
  if (access && req.kind !== "human") throw invalid("access levels are for human members", [{ path: "roles", message: `${access} is for people; agents act through tokens` }]);
  const protocolRoles = req.roles.filter((r): r is (typeof ROLES)[number] => (ROLES as readonly string[]).includes(r));
  const events: TEvent[] = [
    { type: "member.joined", actor, body: { memberId: req.memberId, kind: req.kind, displayName: req.displayName, ...(access ? { access } : {}) } },
    ...protocolRoles.map((role): TEvent => ({ type: "role.assigned", actor, body: { memberId: req.memberId, role } })),
  ];
  const acks = await append(podId, events);
  return { memberId: req.memberId, kind: req.kind, displayName: req.displayName, access: req.kind === "human" ? (access ?? "viewer") : null, roles: protocolRoles, events: acks };
}

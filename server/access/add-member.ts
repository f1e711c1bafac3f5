// Adds a member to a pod's tape: member.joined, then role.assigned for each
// protocol role. Access levels in `roles` (viewer/approver/admin) become the
// person's pod access.
import { ACCESS_LEVELS, ROLES, type Access, type TEvent } from "../domain/events/event-schemas";
import { invalid } from "../domain/errors";
import { speakerOf, type AppendIdentity } from "../domain/access/admit-append";
import type { AppendEvents } from "../tape/append-events";
import type { MemberAdded, TAddMemberRequest } from "../wire/access";

export async function addMember(
  append: AppendEvents,
  podId: string,
  as: AppendIdentity,
  req: TAddMemberRequest,
): Promise<MemberAdded> {
  const actor = speakerOf(as);
  const access = ACCESS_LEVELS.filter((a) => req.roles.includes(a)).at(-1) as Access | undefined;
  if (access && req.kind !== "human")
    throw invalid("access levels are for human members", [
      { path: "roles", message: `${access} is for people; agents act through tokens` },
    ]);
  const protocolRoles = req.roles.filter((r): r is (typeof ROLES)[number] =>
    (ROLES as readonly string[]).includes(r),
  );
  const events: TEvent[] = [
    {
      type: "member.joined",
      actor,
      body: {
        memberId: req.memberId,
        kind: req.kind,
        displayName: req.displayName,
        ...(access ? { access } : {}),
      },
    },
    ...protocolRoles.map((role): TEvent => ({
      type: "role.assigned",
      actor,
      body: { memberId: req.memberId, role },
    })),
  ];
  // Who may add whom, and which names are the server's, is the write path's to say (admitAppend).
  const acks = await append(podId, events, as);
  return {
    memberId: req.memberId,
    kind: req.kind,
    displayName: req.displayName,
    access: req.kind === "human" ? (access ?? "viewer") : null,
    roles: protocolRoles,
    events: acks,
  };
}

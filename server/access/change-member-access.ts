// Pod admins add a person (who must have an account) with an access level,
// change it (access.granted) or remove them (access.revoked). Each change is
// an event on the tape; the domain refuses what breaks a rule (last admin…).
import type { TapeStore } from "../db/tape-store";
import { AppError, notFound } from "../domain/errors";
import type { Access } from "../domain/events/event-schemas";
import { personDisplayName } from "../domain/access/reserved-names";
import { speakerOf, type AppendIdentity } from "../domain/access/admit-append";
import type { AppendEvents } from "../tape/append-events";
import type { AccessChanged, MemberAdded } from "../wire/access";
import { addMember } from "./add-member";

type Deps = { store: TapeStore; append: AppendEvents };

export async function addPerson(
  deps: Deps,
  podId: string,
  as: AppendIdentity,
  input: { email: string; access: Access },
): Promise<MemberAdded> {
  const email = input.email.trim().toLowerCase();
  const user = await deps.store.prisma.user.findUnique({ where: { email } });
  if (!user)
    throw new AppError(
      422,
      "not_a_user",
      `there is no account for ${email} yet: a site administrator invites people`,
    );
  return addMember(deps.append, podId, as, {
    memberId: email,
    kind: "human",
    displayName: personDisplayName(user.name, email),
    roles: [input.access],
  });
}

export async function changeMemberAccess(
  deps: Deps,
  podId: string,
  as: AppendIdentity,
  memberId: string,
  access: Access,
): Promise<AccessChanged> {
  const member = await humanMember(deps.store, podId, memberId);
  if (member.access === access) return { memberId, access, events: [] };
  const events = await deps.append(
    podId,
    [{ type: "access.granted", actor: speakerOf(as), body: { memberId, access } }],
    as,
  );
  return { memberId, access, events };
}

export async function removeMember(
  deps: Deps,
  podId: string,
  as: AppendIdentity,
  memberId: string,
): Promise<AccessChanged> {
  await humanMember(deps.store, podId, memberId);
  const events = await deps.append(
    podId,
    [{ type: "access.revoked", actor: speakerOf(as), body: { memberId } }],
    as,
  );
  return { memberId, access: null, events };
}

async function humanMember(store: TapeStore, podId: string, memberId: string) {
  const state = await store.readState(podId);
  const m = state && Object.hasOwn(state.members, memberId) ? state.members[memberId]! : null;
  if (!m) throw notFound("member");
  if (m.kind !== "human")
    throw new AppError(
      422,
      "access_for_humans",
      `${memberId} is an agent: agents act through tokens (revoke its tokens instead)`,
    );
  return m;
}

// Adds an agent member and creates its first token in one step, checking
// first what would refuse it, so a refused request leaves nothing behind.
import type { TapeStore } from "../db/tape-store";
import { AppError, notFound } from "../domain/errors";
import { speakerOf, type AppendIdentity } from "../domain/access/admit-append";
import { conflictRule } from "../domain/state/rules";
import type { AppendEvents } from "../tape/append-events";
import type { AgentAdded } from "../wire/access";
import type { Role } from "../wire/vocabulary";
import { addMember } from "./add-member";
import { insertAgentToken, toInfo } from "./agent-tokens";

export type AddAgentInput = {
  podId: string;
  memberId: string;
  displayName: string;
  roles: Role[];
  label?: string;
  as: AppendIdentity;
};

export async function addAgent(
  store: TapeStore,
  append: AppendEvents,
  input: AddAgentInput,
): Promise<AgentAdded> {
  const state = await store.readState(input.podId);
  if (!state) throw notFound("pod");
  if (Object.hasOwn(state.members, input.memberId))
    throw conflictRule(
      "member_exists",
      `${input.memberId} is already a member of this pod; choose another id`,
    );
  // The tape's own rules (who may add members, a second chair…) refuse here, before any token exists.
  const member = await addMember(append, input.podId, input.as, {
    memberId: input.memberId,
    kind: "agent",
    displayName: input.displayName,
    roles: input.roles,
  });
  try {
    // The member was just appended as an agent: nothing left to check before its token.
    const { token, row } = await insertAgentToken(store, {
      podId: input.podId,
      memberId: input.memberId,
      label: input.label || "first token",
      createdAt: new Date().toISOString(),
      createdBy: speakerOf(input.as),
    });
    return { member, token, info: toInfo(row) };
  } catch (e) {
    console.error(
      "podwatch: agent added but its token could not be created",
      e instanceof Error ? e.message : e,
    );
    throw new AppError(
      500,
      "token_not_created",
      `${input.memberId} was added, but its token could not be created: create one from its tokens list`,
    );
  }
}

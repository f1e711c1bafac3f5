// Rotating an agent token: a new token for the same member, and the old one
// revoked at the same moment (its live sockets end at once, as on revoke).
import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";
import { conflictRule } from "../domain/state/rules";
import type { TapeBus } from "../tape/bus";
import type { AgentTokenRotated } from "../wire/access";
import { announceRevoked, insertAgentToken, toInfo } from "./agent-tokens";

export async function rotateAgentToken(
  store: TapeStore,
  bus: TapeBus,
  input: { podId: string; tokenId: string; rotatedBy: string },
): Promise<AgentTokenRotated> {
  const old = await store.prisma.agentToken.findFirst({ where: { id: input.tokenId, podId: input.podId } });
  if (!old) throw notFound("token");
  if (old.revokedAt)
    throw conflictRule(
      "token_revoked",
      "this token is already revoked; create a new token for the agent instead",
    );
  const now = new Date().toISOString();
  const { token, row: created } = await insertAgentToken(store, {
    podId: old.podId,
    memberId: old.memberId,
    label: old.label,
    createdAt: now,
    createdBy: input.rotatedBy,
  });
  // Revoke only if still live: of two rotations at once, one wins and the other's new token is withdrawn.
  const { count } = await store.prisma.agentToken
    .updateMany({ where: { id: old.id, revokedAt: null }, data: { revokedAt: now } })
    .catch(async (e: unknown) => {
      await store.prisma.agentToken.delete({ where: { id: created.id } }).catch(() => {});
      throw e;
    });
  if (count === 0) {
    await store.prisma.agentToken.delete({ where: { id: created.id } });
    throw conflictRule(
      "token_revoked",
      "this token was revoked meanwhile; create a new token for the agent instead",
    );
  }
  announceRevoked(bus, old);
  return { token, info: toInfo(created), revoked: toInfo({ ...old, revokedAt: now }) };
}

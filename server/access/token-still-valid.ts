// A gated call may be held for minutes; the token that presented it may be revoked meanwhile.
// Its answer must not outlive it: read the token's row itself, not the verifier's 10 s cache, so
// a revocation made on another node counts too.
import type { TapeStore } from "../db/tape-store";

export async function tokenStillValid(store: TapeStore, tokenId: string): Promise<boolean> {
  const row = await store.prisma.agentToken.findUnique({
    where: { id: tokenId },
    select: { revokedAt: true },
  });
  return !!row && !row.revokedAt;
}

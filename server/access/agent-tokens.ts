// Agent tokens: one member of one pod each; shown once, kept as a hash,
// revocable, with the last time they were used.
import { randomUUID } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import { invalidRule } from "../domain/state/rules";
import { notFound } from "../domain/errors";
import type { TapeBus } from "../tape/bus";
import type { AgentTokenInfo } from "../wire/access";
import { AGENT_TOKEN_PREFIX, hashSecret, newSecret } from "./secrets";

export async function createAgentToken(
  store: TapeStore,
  input: { podId: string; memberId: string; label?: string; createdBy: string },
) {
  const state = await store.readState(input.podId);
  if (!state) throw notFound("pod");
  const member = Object.hasOwn(state.members, input.memberId) ? state.members[input.memberId] : undefined;
  if (!member)
    throw invalidRule(
      "unknown_member",
      `${input.memberId} is not a member of this pod; add the member first`,
    );
  // People act as themselves through their session; a token must never speak for one.
  if (member.kind !== "agent")
    throw invalidRule("tokens_for_agents", `${input.memberId} is a person; tokens are for agent members`);
  const { token, row } = await insertAgentToken(store, {
    ...input,
    label: input.label ?? null,
    createdAt: new Date().toISOString(),
  });
  return { token, info: toInfo(row) };
}

/** Stores a new token (its hash only) for a member already checked to be an agent; the secret is returned this once. */
export async function insertAgentToken(
  store: TapeStore,
  t: { podId: string; memberId: string; label: string | null; createdAt: string; createdBy: string },
) {
  const token = newSecret(AGENT_TOKEN_PREFIX);
  const row = await store.prisma.agentToken.create({
    data: { id: randomUUID(), ...t, tokenHash: hashSecret(token) },
  });
  return { token, row };
}

/**
 * Tells every listener of the bus, on this node (synchronously) and others: the verifier forgets
 * the token (app-context's forgetId) and the socket layer ends its live sockets.
 */
export function announceRevoked(bus: TapeBus, row: { id: string }) {
  bus.emit("credential-revoked", { kind: "agent-token", tokenId: row.id });
}

export async function listAgentTokens(store: TapeStore, podId: string): Promise<AgentTokenInfo[]> {
  const rows = await store.prisma.agentToken.findMany({ where: { podId }, orderBy: { createdAt: "asc" } });
  return rows.map(toInfo);
}

/** Revokes at once: this process stops accepting the token, and its live sockets are ended (the bus tells the socket layer). */
export async function revokeAgentToken(
  store: TapeStore,
  bus: TapeBus,
  podId: string,
  tokenId: string,
): Promise<AgentTokenInfo> {
  const row = await store.prisma.agentToken.findFirst({ where: { id: tokenId, podId } });
  if (!row) throw notFound("token");
  const updated = row.revokedAt
    ? row
    : await store.prisma.agentToken.update({
        where: { id: tokenId },
        data: { revokedAt: new Date().toISOString() },
      });
  announceRevoked(bus, row);
  return toInfo(updated);
}

/** A token as listed: never its hash. */
export function toInfo(r: AgentTokenInfo & { tokenHash?: string }): AgentTokenInfo {
  return {
    id: r.id,
    podId: r.podId,
    memberId: r.memberId,
    label: r.label,
    createdAt: r.createdAt,
    createdBy: r.createdBy,
    lastUsedAt: r.lastUsedAt,
    revokedAt: r.revokedAt,
  };
}

type Verified = { tokenId: string; podId: string; memberId: string };
const CACHE_MS = 10_000;
const TOUCH_MS = 60_000;
const MAX_CACHED = 10_000;

/** Checks bearer tokens on the hot path: a short cache, and last-used written at most once a minute. */
export class TokenVerifier {
  private cache = new Map<string, { at: number; hash: string; value: Verified | null }>();
  private touched = new Map<string, number>();
  private generation = 0;

  constructor(private readonly store: TapeStore) {}

  async verify(secret: string): Promise<Verified | null> {
    if (!secret.startsWith(AGENT_TOKEN_PREFIX)) return null;
    const now = Date.now();
    // Keyed by the secret itself (this process already holds it): no hashing on the hot path.
    let hit = this.cache.get(secret);
    const hash = hit?.hash ?? hashSecret(secret);
    if (!hit || now - hit.at > CACHE_MS) {
      const generation = this.generation;
      const row = await this.store.prisma.agentToken.findUnique({ where: { tokenHash: hash } });
      if (!row || row.revokedAt) return null; // failures are not cached: guessing cannot grow the cache
      hit = { at: now, hash, value: { tokenId: row.id, podId: row.podId, memberId: row.memberId } };
      // A revocation that raced this lookup wins: do not cache what it just forgot.
      if (generation === this.generation) {
        if (this.cache.size >= MAX_CACHED) this.cache.clear();
        this.cache.set(secret, hit);
      }
    }
    if (hit.value && now - (this.touched.get(hash) ?? 0) > TOUCH_MS) {
      this.touched.set(hash, now);
      void this.store.prisma.agentToken
        .update({ where: { tokenHash: hash }, data: { lastUsedAt: new Date(now).toISOString() } })
        .catch(() => {});
    }
    return hit.value;
  }

  /** A revocation heard on the bus, made here or on another node (which knows the id, not this cache's key). */
  forgetId(tokenId: string) {
    this.generation++;
    for (const [secret, entry] of this.cache) if (entry.value?.tokenId === tokenId) this.cache.delete(secret);
  }
}

// The access parts of the process: Better Auth, the token verifier, the admin
// keys and the rate limiters. Built once per server, after it knows its URL.
import { randomBytes } from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { createAuth, type Auth } from "./create-auth";
import { TokenVerifier } from "./agent-tokens";

export type AccessContext = {
  store: TapeStore;
  auth: Auth;
  tokens: TokenVerifier;
  /** [label, secret]: PODWATCH_ADMIN_TOKEN when set, and the server's own key for its demo simulator. */
  adminKeys: [string, string][];
  /** The key the server hands its own demo simulator (never printed, never stored). */
  internalKey: string;
  limits: { perKey: RateLimiterMemory; authFailures: RateLimiterMemory };
};

export function createAccessContext(config: Config, store: TapeStore): AccessContext {
  const internalKey = randomBytes(32).toString("base64url");
  return {
    store,
    auth: createAuth(config, store),
    tokens: new TokenVerifier(store),
    adminKeys: [...(config.adminToken ? [["PODWATCH_ADMIN_TOKEN", config.adminToken] as [string, string]] : []), ["demo", internalKey]],
    internalKey,
    limits: {
      perKey: new RateLimiterMemory({ points: config.rateLimitPerMinute, duration: 60 }),
      authFailures: new RateLimiterMemory({ points: config.authFailuresPerMinute, duration: 60 }),
    },
  };
}

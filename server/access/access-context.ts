// The access parts of the process: Better Auth, the token verifier, the admin
// keys, the rate limiters and who the client is. Built once per server, after it knows its URL.
import { randomBytes } from "node:crypto";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { createAuth, type Auth } from "./create-auth";
import { TokenVerifier } from "./agent-tokens";
import { createLimits, type Limits } from "./rate-limiters";
import { clientIpResolver, type ClientIp } from "../shared/client-ip";

export type AccessContext = {
  store: TapeStore;
  auth: Auth;
  tokens: TokenVerifier;
  /** [label, secret]: PODWATCH_ADMIN_TOKEN when set, and the server's own key for its demo simulator. */
  adminKeys: [string, string][];
  /** The key the server hands its own demo simulator (never printed, never stored). */
  internalKey: string;
  limits: Limits;
  /** The client's address for every limit keyed on one (PODWATCH_TRUSTED_PROXIES decides whether X-Forwarded-For counts). */
  clientIp: ClientIp;
};

export function createAccessContext(config: Config, store: TapeStore): AccessContext {
  const internalKey = randomBytes(32).toString("base64url");
  const limits = createLimits(config, store);
  return {
    store,
    auth: createAuth(config, store, limits.betterAuth),
    tokens: new TokenVerifier(store),
    adminKeys: [
      ...(config.adminToken ? [["PODWATCH_ADMIN_TOKEN", config.adminToken] as [string, string]] : []),
      ["demo", internalKey],
    ],
    internalKey,
    limits,
    clientIp: clientIpResolver(config.trustedProxies),
  };
}

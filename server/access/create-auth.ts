// People sign in through Better Auth (email + password; OIDC when configured),
// stored through its Prisma adapter in our own database. Nobody signs up by
// themselves: an admin creates people (POST /api/v1/users), or OIDC brings them.
import type { IncomingMessage, ServerResponse } from "node:http";
import { betterAuth, type BetterAuthRateLimitOptions } from "better-auth";
import { toNodeHandler } from "better-auth/node";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import { genericOAuth } from "better-auth/plugins/generic-oauth";
import type { TapeStore } from "../db/tape-store";
import type { Config } from "../config";

export const CLIENT_IP_HEADER = "x-podwatch-peer-ip";

/** `sharedLimits`: Better Auth's throttle counted where every node sees it (PostgreSQL); without, its own per-process memory. */
export function createAuth(
  config: Config,
  store: TapeStore,
  sharedLimits?: BetterAuthRateLimitOptions["customStorage"],
) {
  // Without a secret Better Auth falls back to a built-in default anyone can read: never let it.
  if (!config.authSecret || config.authSecret.length < 32) {
    throw new Error(
      "Better Auth needs podwatch's own secret (PODWATCH_AUTH_SECRET, or the generated one: data/auth-secret on SQLite, the database on PostgreSQL); refusing to start without one",
    );
  }
  const oidc = config.oidc;
  return betterAuth({
    appName: "podwatch",
    baseURL: config.publicUrl,
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    // Prisma's interactive transactions would interleave with the tape's own
    // transactions on SQLite's single connection: Better Auth's steps run one by one.
    database: prismaAdapter(store.prisma, {
      provider: store.kind === "postgres" ? "postgresql" : "sqlite",
      transaction: false,
    }),
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 10 },
    user: {
      additionalFields: {
        isAdmin: { type: "boolean", defaultValue: false, input: false },
        canCreatePods: { type: "boolean", defaultValue: false, input: false },
        mustChangePassword: { type: "boolean", defaultValue: false, input: false },
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Our own limiter guards the agent API; Better Auth's guards sign-in against guessing.
    rateLimit: {
      enabled: true,
      window: 60,
      max: 100,
      storage: "memory",
      customStorage: sharedLimits,
      customRules: { "/sign-in/email": { window: 60, max: config.signInsPerMinute } },
    },
    telemetry: { enabled: false },
    // The custom server overwrites this header on every request it serves with the client's
    // address (server/shared/client-ip.ts), so a client cannot choose its rate-limit bucket.
    advanced: {
      useSecureCookies: config.publicUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    plugins: [
      ...(oidc
        ? [
            genericOAuth({
              config: [
                {
                  providerId: "oidc",
                  name: oidc.name,
                  discoveryUrl: oidc.discoveryUrl,
                  clientId: oidc.clientId,
                  clientSecret: oidc.clientSecret,
                  scopes: ["openid", "email", "profile"],
                },
              ],
            }),
          ]
        : []),
      nextCookies(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** Better Auth for node:http. Its sign-in throttle answers 429 with only a non-standard X-Retry-After: add Retry-After. */
export function authNodeHandler(auth: Auth): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handle = toNodeHandler(auth);
  return (req, res) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
      const after = this.getHeader("x-retry-after");
      if (status === 429 && after !== undefined && !this.hasHeader("retry-after"))
        this.setHeader("retry-after", String(Math.max(1, Number(after) || 1)));
      return (writeHead as (...a: unknown[]) => ServerResponse).call(this, status, ...rest);
    } as typeof res.writeHead;
    return handle(req, res);
  };
}

// The one place the environment is read. Everything else receives a Config.
import { z } from "zod";

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, "must start with file: or postgres://")
    .default("file:./data/podwatch.db"),
  PODWATCH_DEMO: z.enum(["0", "1"]).default("1"),
  PODWATCH_WEB: z.enum(["0", "1"]).default("1"),
  PODWATCH_SQLITE_SYNC: z.enum(["full", "normal"]).default("full"),
  PODWATCH_DEMO_INTERVAL_MS: z.coerce.number().int().min(50).default(2500),
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PODWATCH_PUBLIC_URL: z.url().optional(),
  PODWATCH_AUTH_SECRET: z.string().min(32, "use at least 32 characters").optional(),
  PODWATCH_ADMIN_TOKEN: z.string().min(24, "use at least 24 characters").optional(),
  PODWATCH_ADMIN_EMAIL: z.email().default("admin@podwatch.local"),
  PODWATCH_OIDC_DISCOVERY_URL: z.url().optional(),
  PODWATCH_OIDC_CLIENT_ID: z.string().min(1).optional(),
  PODWATCH_OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  PODWATCH_OIDC_NAME: z.string().min(1).default("Single sign-on"),
  PODWATCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120_000),
  PODWATCH_AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  PODWATCH_SIGN_INS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  PODWATCH_BLOB_MAX_BYTES: z.coerce.number().int().min(1).default(100 * 1024 * 1024),
  PODWATCH_SOCKET_ACK_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  PODWATCH_SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, "must be smtp://… or smtps://…").optional(),
  PODWATCH_SMTP_FROM: z.string().min(3).default("podwatch <podwatch@localhost>"),
});

export type Config = {
  port: number;
  host: string;
  databaseUrl: string;
  demo: boolean;
  /** 0 serves only the agent API, sockets and health checks (no web UI, no build). */
  web: boolean;
  demoIntervalMs: number;
  dev: boolean;
  /** SQLite fsync policy: full = fsync every commit (survives power loss); normal = survives process crashes only. */
  sqliteSync: "full" | "normal";
  /** The URL people open; Better Auth's cookies and origin checks use it. */
  publicUrl: string;
  trustedOrigins: string[];
  /** Better Auth's secret; when unset, one is generated and kept in the data folder. */
  authSecret: string | undefined;
  adminToken: string | undefined;
  adminEmail: string;
  oidc: { discoveryUrl: string; clientId: string; clientSecret: string; name: string } | null;
  /** Requests a minute per agent token, and per IP for everything else. */
  rateLimitPerMinute: number;
  /** Failed authentications a minute per IP before further attempts are refused. */
  authFailuresPerMinute: number;
  /** Password sign-in attempts a minute per IP (Better Auth's limiter). */
  signInsPerMinute: number;
  /** Largest blob accepted by PUT /api/v1/blobs/{sha256}. */
  blobMaxBytes: number;
  /** How long a live-tape socket may take to acknowledge a backlog page before it is disconnected as a slow consumer. */
  socketAckTimeoutMs: number;
  /** Invite and reset links are also mailed when set (nodemailer's smtp://user:pass@host:port URL); `from` is the sender. */
  smtp: { url: string; from: string } | null;
};

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    demo: e.PODWATCH_DEMO === "1",
    web: e.PODWATCH_WEB === "1",
    demoIntervalMs: e.PODWATCH_DEMO_INTERVAL_MS,
    dev: e.NODE_ENV === "development",
    sqliteSync: e.PODWATCH_SQLITE_SYNC,
    publicUrl: (e.PODWATCH_PUBLIC_URL ?? hostUrl(e.HOST, e.PORT)).replace(/\/$/, ""),
    trustedOrigins: [...new Set([e.PODWATCH_PUBLIC_URL, `http://127.0.0.1:${e.PORT}`, `http://localhost:${e.PORT}`].filter((o): o is string => !!o).map((o) => o.replace(/\/$/, "")))],
    authSecret: e.PODWATCH_AUTH_SECRET,
    adminToken: e.PODWATCH_ADMIN_TOKEN,
    adminEmail: e.PODWATCH_ADMIN_EMAIL,
    oidc:
      e.PODWATCH_OIDC_DISCOVERY_URL && e.PODWATCH_OIDC_CLIENT_ID && e.PODWATCH_OIDC_CLIENT_SECRET
        ? { discoveryUrl: e.PODWATCH_OIDC_DISCOVERY_URL, clientId: e.PODWATCH_OIDC_CLIENT_ID, clientSecret: e.PODWATCH_OIDC_CLIENT_SECRET, name: e.PODWATCH_OIDC_NAME }
        : null,
    rateLimitPerMinute: e.PODWATCH_RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: e.PODWATCH_AUTH_FAILURES_PER_MINUTE,
    signInsPerMinute: e.PODWATCH_SIGN_INS_PER_MINUTE,
    blobMaxBytes: e.PODWATCH_BLOB_MAX_BYTES,
    socketAckTimeoutMs: e.PODWATCH_SOCKET_ACK_TIMEOUT_MS,
    smtp: e.PODWATCH_SMTP_URL ? { url: e.PODWATCH_SMTP_URL, from: e.PODWATCH_SMTP_FROM } : null,
  };
}

/** The URL of a listening address (IPv6 hosts in brackets). */
export const hostUrl = (host: string, port: number) => `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

// The one place the environment is read. Everything else receives a Config.
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { isIP } from "node:net";
import { z } from "zod";
import { parseModelPriceFile } from "./domain/usage/model-price-file";
import type { PriceRow } from "./domain/usage/model-prices";

/** An address or a CIDR block: 10.0.0.0/8, 127.0.0.1, ::1, fd00::/8. */
const isAddressOrBlock = (s: string) => {
  const [ip, bits, extra] = s.split("/");
  const family = isIP(ip ?? "");
  if (!family || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
};

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
  PODWATCH_BLOB_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  PODWATCH_SOCKET_ACK_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  PODWATCH_SOCKET_FRAMES_PER_SECOND: z.coerce.number().int().min(1).default(50_000),
  PODWATCH_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be smtp://… or smtps://…")
    .optional(),
  PODWATCH_SMTP_FROM: z.string().min(3).default("podwatch <podwatch@localhost>"),
  PODWATCH_WEBHOOK_ALLOW_PRIVATE: z.enum(["0", "1"]).default("0"),
  PODWATCH_VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  PODWATCH_VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  PODWATCH_VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, "must be mailto:… or https://…")
    .optional(),
  PODWATCH_NOTIFY_RETRY_MS: z.coerce.number().int().min(10).default(30_000),
  PODWATCH_PUSH_DEADLINE_MS: z.coerce.number().int().min(100).max(25_000).default(5_000), // server/notify/post-push.ts
  PODWATCH_NODE_ID: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, "use 1–64 letters, digits, dots, dashes or underscores")
    .optional(),
  PODWATCH_BLOB_DIR: z.string().min(1).optional(),
  PODWATCH_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every(isAddressOrBlock),
      "a comma-separated list of addresses or CIDR blocks (10.0.0.0/8, ::1)",
    ),
  PODWATCH_PG_POOL_MAX: z.coerce.number().int().min(2).max(500).default(10),
  PODWATCH_SNAPSHOT_EVERY: z.coerce.number().int().min(1).max(1_000_000).default(1000), // SNAPSHOT_EVERY, server/db/pod-state-cache.ts
  PODWATCH_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  PODWATCH_MODEL_PRICES: z.string().trim().min(1).optional(), // an operator's price file (server/domain/usage/model-price-file.ts)
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
  /** Live frames a second one pod's fan-out may send over all its sockets; a busier pod's frames are gathered into fewer (server/realtime/frame-window.ts). */
  socketFramesPerSecond: number;
  /** Invite and reset links are also mailed when set (nodemailer's smtp://user:pass@host:port URL); `from` is the sender. */
  smtp: { url: string; from: string } | null;
  /** Webhooks may target loopback and private addresses (the operator's choice; tests use it for a loopback receiver). */
  webhookAllowPrivate: boolean;
  /** Web Push's VAPID keys: from the environment, else generated into the data folder at start (server/notify/vapid-keys.ts). */
  vapid: { publicKey: string | undefined; privateKey: string | undefined; subject: string | undefined };
  /** The first retry of a failed push or mail waits this long, doubling after (tests shorten it). */
  notifyRetryMs: number;
  /** One push (or mail phase) may take this long to connect and answer; past it the attempt failed and is retried. */
  pushDeadlineMs: number;
  /** This node's name in a cluster (logs, /readyz, the bus skips its own notifications): PODWATCH_NODE_ID, else host-pid. */
  nodeId: string;
  /** Blobs in this folder (shared by every node) instead of the data folder or, on PostgreSQL, the database. */
  blobDir: string | null;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR blocks); empty: the socket's peer is the client. */
  trustedProxies: string[];
  /** PostgreSQL connections this node's pool may open (the bus and the timekeeper hold one more each). */
  pgPoolMax: number;
  /** How many events a pod's stored state (a snapshot of its projection) may lag its head, at least (a large state's more); the tail is replayed at load. */
  snapshotEvery: number;
  /** On SIGTERM: how long requests in flight may take to finish before the node closes anyway. */
  drainMs: number;
  /** Prices for models the list does not know, or other prices for those it does (PODWATCH_MODEL_PRICES, read once at start). */
  modelPrices: PriceRow[];
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
    trustedOrigins: [
      ...new Set(
        [e.PODWATCH_PUBLIC_URL, `http://127.0.0.1:${e.PORT}`, `http://localhost:${e.PORT}`]
          .filter((o): o is string => !!o)
          .map((o) => o.replace(/\/$/, "")),
      ),
    ],
    authSecret: e.PODWATCH_AUTH_SECRET,
    adminToken: e.PODWATCH_ADMIN_TOKEN,
    adminEmail: e.PODWATCH_ADMIN_EMAIL,
    oidc:
      e.PODWATCH_OIDC_DISCOVERY_URL && e.PODWATCH_OIDC_CLIENT_ID && e.PODWATCH_OIDC_CLIENT_SECRET
        ? {
            discoveryUrl: e.PODWATCH_OIDC_DISCOVERY_URL,
            clientId: e.PODWATCH_OIDC_CLIENT_ID,
            clientSecret: e.PODWATCH_OIDC_CLIENT_SECRET,
            name: e.PODWATCH_OIDC_NAME,
          }
        : null,
    rateLimitPerMinute: e.PODWATCH_RATE_LIMIT_PER_MINUTE,
    authFailuresPerMinute: e.PODWATCH_AUTH_FAILURES_PER_MINUTE,
    signInsPerMinute: e.PODWATCH_SIGN_INS_PER_MINUTE,
    blobMaxBytes: e.PODWATCH_BLOB_MAX_BYTES,
    socketAckTimeoutMs: e.PODWATCH_SOCKET_ACK_TIMEOUT_MS,
    socketFramesPerSecond: e.PODWATCH_SOCKET_FRAMES_PER_SECOND,
    smtp: e.PODWATCH_SMTP_URL ? { url: e.PODWATCH_SMTP_URL, from: e.PODWATCH_SMTP_FROM } : null,
    webhookAllowPrivate: e.PODWATCH_WEBHOOK_ALLOW_PRIVATE === "1",
    vapid: {
      publicKey: e.PODWATCH_VAPID_PUBLIC_KEY,
      privateKey: e.PODWATCH_VAPID_PRIVATE_KEY,
      subject: e.PODWATCH_VAPID_SUBJECT,
    },
    notifyRetryMs: e.PODWATCH_NOTIFY_RETRY_MS,
    pushDeadlineMs: e.PODWATCH_PUSH_DEADLINE_MS,
    nodeId:
      e.PODWATCH_NODE_ID ??
      `${hostname()
        .replace(/[^A-Za-z0-9._-]/g, "-")
        .slice(0, 40)}-${process.pid}`,
    blobDir: e.PODWATCH_BLOB_DIR ?? null,
    trustedProxies: e.PODWATCH_TRUSTED_PROXIES,
    pgPoolMax: e.PODWATCH_PG_POOL_MAX,
    snapshotEvery: e.PODWATCH_SNAPSHOT_EVERY,
    drainMs: e.PODWATCH_DRAIN_MS,
    modelPrices: e.PODWATCH_MODEL_PRICES ? readPriceFile(e.PODWATCH_MODEL_PRICES) : [],
  };
}

/** The URL of a listening address (IPv6 hosts in brackets). */
export const hostUrl = (host: string, port: number) =>
  `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

/** The operator's price file; a bad one stops the start with a clear error (Invalid configuration: …). */
function readPriceFile(path: string): PriceRow[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(
      `Invalid configuration:\n  PODWATCH_MODEL_PRICES: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? e})`,
    );
  }
  try {
    return parseModelPriceFile(text, path);
  } catch (e) {
    throw new Error(`Invalid configuration:\n  ${(e as Error).message}`);
  }
}

// The rate limiters. On SQLite (one node) they count in memory. On PostgreSQL every node counts
// in the shared rate_limit table, so a budget spent on node A is spent on node B: the per-request
// budget in batches (./batched-limiter.ts: no round trip per request), the rare ones (failed
// authentications, sign-ins) with one atomic upsert per call, an in-memory limiter of the same size
// standing in when the database fails or is slow to answer, so a hiccup costs precision, never a 500.
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { BetterAuthRateLimitOptions } from "better-auth";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { BatchedSharedLimiter } from "./batched-limiter";

export type Limiter = RateLimiterAbstract;
type BetterAuthRateLimitStorage = NonNullable<BetterAuthRateLimitOptions["customStorage"]>;
export type Limits = {
  /** Requests per key (a token, else an IP), per minute. */
  perKey: { consume(key: string): Promise<unknown> };
  /** Failed authentications per IP, per minute. */
  authFailures: Limiter;
  /** Better Auth's throttle (sign-in and its other rules) when it must be shared; undefined keeps its own memory store. */
  betterAuth: BetterAuthRateLimitStorage | undefined;
};

const TABLE = "rate_limit";
/** Past this the database is "not answering" for a limit check: the insurance limiter decides. */
const DB_TIMEOUT_MS = 1000;

/** `keyPrefix` names the limiter inside the shared table; `sweeps`: this one deletes long-expired rows (one per node is enough). */
function limiter(
  store: TapeStore,
  keyPrefix: string,
  points: number,
  duration: number,
  sweeps = false,
): Limiter {
  const insurance = new RateLimiterMemory({ keyPrefix, points, duration });
  if (store.kind !== "postgres" || !store.pool) return insurance;
  const shared = new RateLimiterPostgres({
    storeClient: store.pool,
    storeType: "pool",
    tableName: TABLE,
    tableCreated: true, // by the migration (prisma/models.prisma RateLimit), not at runtime
    clearExpiredByTimeout: sweeps,
    keyPrefix,
    points,
    duration,
    insuranceLimiter: insurance,
    // A key past its budget is refused from this node's memory until its window ends: a flood of
    // refused requests costs the database nothing.
    inMemoryBlockOnConsumed: points + 1,
  });
  return new RLWrapperTimeouts({ limiter: shared, timeoutMs: DB_TIMEOUT_MS, insuranceLimiter: insurance });
}

/** Better Auth's rules (window, max) as shared fixed-window limiters, one per distinct rule, made on first use. */
function betterAuthStorage(store: TapeStore): BetterAuthRateLimitStorage {
  const byRule = new Map<string, Limiter>();
  return {
    async consume(key, rule) {
      const name = `auth-${rule.window}-${rule.max}`;
      let l = byRule.get(name);
      if (!l) byRule.set(name, (l = limiter(store, name, rule.max, rule.window)));
      return l.consume(key).then(
        () => ({ allowed: true, retryAfter: null }),
        (r: { msBeforeNext?: number }) => ({
          allowed: false,
          retryAfter: Math.max(1, Math.ceil((r.msBeforeNext ?? rule.window * 1000) / 1000)),
        }),
      );
    },
  };
}

export function createLimits(config: Config, store: TapeStore): Limits {
  return {
    perKey:
      store.kind === "postgres" && store.pool
        ? new BatchedSharedLimiter(store.pool, "api", config.rateLimitPerMinute)
        : limiter(store, "api", config.rateLimitPerMinute, 60),
    // This one also sweeps the table's expired rows (the batched counts' too): one sweeper per node is enough.
    authFailures: limiter(store, "auth-failures", config.authFailuresPerMinute, 60, true),
    betterAuth: store.kind === "postgres" ? betterAuthStorage(store) : undefined,
  };
}

// Several real podwatch processes (spawn-server.ts: each on a port of its own choosing, reaped
// if the test process exits) on one fresh PostgreSQL database, for the cluster tests. Every node
// is killed when the cluster stops.
import { spawnServer, type Exit, type SpawnedServer } from "./spawn-server";
import { createTestDatabase, type Provider, type TestDatabase } from "./test-databases";

export type { Exit };
export const CLUSTER_ADMIN_TOKEN = "cluster-admin-token-0123456789abcdef";

export type ClusterNode = SpawnedServer & {
  name: string;
  /** Sends `signal` and waits (bounded) for the exit; a node that outlives the wait is SIGKILLed. */
  kill: (signal?: NodeJS.Signals) => Promise<Exit>;
};

export type Cluster = {
  db: TestDatabase;
  nodes: Map<string, ClusterNode>;
  node: (name: string) => ClusterNode;
  /** Starts (or starts again, on the same database) the node `name`. */
  start: (name: string, env?: Record<string, string>) => Promise<ClusterNode>;
  stop: () => Promise<void>;
};

/** What every node gets besides spawnServer's own (loopback, a port of its choosing, no UI, no demo): test timings (short deadlines, watchdog minutes, webhook retries), loopback webhooks, one admin token and auth secret. */
export function clusterEnv(db: TestDatabase): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    PODWATCH_ADMIN_TOKEN: CLUSTER_ADMIN_TOKEN,
    PODWATCH_AUTH_SECRET: "cluster-auth-secret-".padEnd(40, "x"),
    PODWATCH_DEADLINE_MIN_MS: "100",
    PODWATCH_WATCHDOG_MINUTE_MS: "1000",
    PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1",
    PODWATCH_WEBHOOK_TIME_SCALE: String(3 / 86_400),
  };
}

/**
 * A cluster of `names` on a fresh database, started one after the other (the first migrates):
 * PostgreSQL (TEST_DATABASE_URL) by default; SQLite serves one node only.
 */
export async function startCluster(
  names: string[],
  options: { provider?: Provider; env?: Record<string, string> } = {},
): Promise<Cluster> {
  const { provider = "postgres", env = {} } = options;
  if (provider === "sqlite" && names.length > 1) throw new Error("SQLite serves one node only");
  const db = await createTestDatabase(provider);
  const nodes = new Map<string, ClusterNode>();
  const start = async (name: string, extra: Record<string, string> = {}) => {
    const node = await startNode(name, { ...clusterEnv(db), PODWATCH_NODE_ID: name, ...env, ...extra });
    nodes.set(name, node);
    return node;
  };
  const cluster: Cluster = {
    db,
    nodes,
    node: (name) => nodes.get(name) ?? fail(`no node ${name}`),
    start,
    stop: async () => {
      await Promise.all([...nodes.values()].map((n) => n.kill("SIGKILL")));
      await db.drop();
    },
  };
  try {
    for (const name of names) await start(name);
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}

async function startNode(name: string, env: Record<string, string>): Promise<ClusterNode> {
  const server = await spawnServer(env, { name });
  return { ...server, name, kill: server.stop };
}

function fail(message: string): never {
  throw new Error(message);
}

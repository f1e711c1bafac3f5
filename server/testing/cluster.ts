// Several real podwatch processes (`node --import tsx server/main.ts`) on one fresh PostgreSQL
// database, for the cluster tests. Each node listens on a port of its own choosing (PORT=0) and
// says which in its "listening on" line. Every child is killed when the cluster stops, and with
// SIGKILL when the test process exits however it exits: a failing test leaves no orphan.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createTestDatabase, type Provider, type TestDatabase } from "./test-databases";

const ROOT = join(import.meta.dirname, "..", "..");
export const CLUSTER_ADMIN_TOKEN = "cluster-admin-token-0123456789abcdef";
const START_MS = 90_000;
const EXIT_MS = 15_000;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type ClusterNode = {
  name: string;
  url: string;
  child: ChildProcess;
  /** Everything the node printed, stdout and stderr interleaved. */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
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

const live = new Set<ChildProcess>();
let reaperInstalled = false;
function reapOnExit() {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.once("exit", () => {
    for (const child of live) child.kill("SIGKILL");
  });
}

/** What every node gets: test timings (short deadlines, watchdog minutes, webhook retries), loopback webhooks, one admin token and auth secret. */
export function clusterEnv(db: TestDatabase): Record<string, string> {
  return {
    DATABASE_URL: db.url,
    PORT: "0",
    HOST: "127.0.0.1",
    PODWATCH_WEB: "0",
    PODWATCH_DEMO: "0",
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
export async function startCluster(names: string[], options: { provider?: Provider; env?: Record<string, string> } = {}): Promise<Cluster> {
  reapOnExit();
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
  // node itself with tsx's loader, not the tsx CLI: a signal must hit the server, not a wrapper.
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "server", "main.ts")], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  live.add(child);
  // Nothing of a node keeps the test process alive: the reaper above kills what is left.
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => (live.delete(child), resolve({ code, signal }))));
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    // Held (not unref'd) while we wait: the child itself is unref'd and would not keep us here for its exit.
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_MS);
    const exit = await exited;
    clearTimeout(timer);
    return exit;
  };
  try {
    const url = await bounded(`${name} to say where it listens`, START_MS, exited, () => /podwatch: listening on (http:\/\/\S+)/.exec(out)?.[1] ?? null);
    await bounded(`${name} to be ready`, START_MS, exited, async () => ((await fetch(`${url}/readyz`).catch(() => null))?.ok ? true : null));
    return { name, url, child, output: () => out, exited, kill };
  } catch (e) {
    await kill("SIGKILL");
    throw new Error(`${e instanceof Error ? e.message : e}\n--- ${name} printed:\n${out}`);
  }
}

/** Polls `probe` until it gives a value, the process exits, or `ms` pass. */
async function bounded<T>(what: string, ms: number, exited: Promise<Exit>, probe: () => T | null | Promise<T | null>): Promise<T> {
  let exit: Exit | null = null;
  void exited.then((e) => (exit = e));
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null) return v;
    if (exit) throw new Error(`waiting for ${what}: the node exited (${JSON.stringify(exit)})`);
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function fail(message: string): never {
  throw new Error(message);
}

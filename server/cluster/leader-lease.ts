// One node at a time does a piece of background work (the timekeeper, the demo): it holds a
// session-level PostgreSQL advisory lock on a connection of its own. The lock lives exactly as
// long as that session, so a node that dies loses it when PostgreSQL ends its session, and
// another node, trying every few seconds, takes over. A SIGKILL closes the socket at once; a
// holder that falls silent (power cut, partition, frozen VM) would keep it for PostgreSQL's
// default two hours of TCP keepalive, so the session asks the server to end it after a few
// missed checks (idle_session_timeout, PostgreSQL 14+) and to probe the peer every few seconds.
// The holder checks every few seconds that its session still holds the lock; a dropped
// connection, a failed check or stop() ends the work at once. On SQLite there is one node: it
// always leads.
import pg from "pg";

type Stop = () => Promise<void> | void;

export type LeaseOptions = {
  databaseUrl: string;
  /** The advisory lock's key, one per role, shared by every node. */
  lockKey: number;
  /** Names the role in logs and in the connection's application_name (`podwatch-<role>:<nodeId>`). */
  role: string;
  nodeId: string;
  /** How often a non-holder tries, and a holder checks its lock (tests shorten it). */
  retryMs?: number;
  /** Starts the work; returns its stop. */
  lead: () => Promise<Stop> | Stop;
};

export const LEASE_RETRY_MS = 3_000;

/**
 * The server ends a session idle for this long: five of the holder's checks. A live holder's own
 * check (bounded by its query timeout, three checks) gives up before that, so a holder cut off from
 * the database stops its work before the server frees the lock for another node.
 */
const idleLimitMs = (retryMs: number) => 5 * retryMs;
const queryLimitMs = (retryMs: number) => 3 * retryMs;

/** Server-side settings of the lease's session (libpq `options`). */
function leaseSessionOptions(retryMs: number): string {
  return [
    `-c idle_session_timeout=${idleLimitMs(retryMs)}`,
    // For a session busy in a query when its peer vanished: probe after 10 s, give up 15 s later.
    "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3",
  ].join(" ");
}

export class LeaderLease {
  private client: pg.Client | null = null;
  private stopWork: Stop | null = null;
  /** The stop of work ended by a lost lease, awaited before leading again. */
  private stopping: Promise<void> = Promise.resolve();
  private ticking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;

  constructor(private readonly options: LeaseOptions) {}

  get leading(): boolean {
    return this.stopWork !== null;
  }

  start() {
    this.stopped = false;
    if (this.options.databaseUrl.startsWith("file:")) {
      this.ticking = (async () => void (this.stopWork = await this.options.lead()))().catch((e) =>
        console.error(`podwatch: the ${this.options.role} did not start`, e),
      );
      return;
    }
    this.tick();
  }

  /** Ends the work first, then the session: the next leader starts only once this one has stopped. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    const stop = this.stopWork;
    this.stopWork = null;
    await stop?.();
    await this.stopping;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private tick = () => {
    this.timer = null;
    this.ticking = this.attempt().finally(() => {
      this.ticking = null;
      if (this.stopped) return;
      this.timer = setTimeout(this.tick, this.options.retryMs ?? LEASE_RETRY_MS);
      this.timer.unref();
    });
  };

  private async attempt() {
    const { lockKey, lead } = this.options;
    let client: pg.Client | null = null;
    try {
      await this.stopping;
      client = this.client ?? (await this.connect());
      if (this.stopWork) {
        const held = await client.query<{ held: boolean }>(
          `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND classid = 0 AND objid = $1 AND objsubid = 1) AS held`,
          [lockKey],
        );
        if (!held.rows[0]?.held) this.drop(client, "its advisory lock is no longer held");
        return;
      }
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [
        lockKey,
      ]);
      if (!rows[0]?.ok || this.stopped) return;
      const stop = await lead();
      // The connection may have dropped while the work started: then it must not run on.
      if (this.client !== client || this.stopped) return void (await stop());
      this.stopWork = stop;
      console.log(`podwatch: this node (${this.options.nodeId}) holds the ${this.options.role} lease`);
    } catch (error) {
      if (!this.stopped)
        console.warn(`podwatch: the ${this.options.role} lease: ${(error as Error).message}; trying again`);
      if (client) this.drop(client, (error as Error).message);
    }
  }

  private async connect(): Promise<pg.Client> {
    const retryMs = this.options.retryMs ?? LEASE_RETRY_MS;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      application_name: `podwatch-${this.options.role}:${this.options.nodeId}`,
      options: leaseSessionOptions(retryMs),
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      query_timeout: queryLimitMs(retryMs),
    });
    client.on("error", (e) => this.drop(client, e.message));
    client.on("end", () => this.drop(client, "its connection closed"));
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    this.client = client;
    return client;
  }

  /** The session is gone or no longer trusted: stop the work now and let the lock go with the session. */
  private drop(client: pg.Client, why: string) {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => {});
    const stop = this.stopWork;
    this.stopWork = null;
    if (!stop) return;
    console.warn(
      `podwatch: this node (${this.options.nodeId}) no longer holds the ${this.options.role} lease: ${why}`,
    );
    // Called now, not on a later tick: the work's stop() marks it stopped before its first await.
    this.stopping = (async () => stop())().catch((e) =>
      console.error(`podwatch: the ${this.options.role}'s work did not stop cleanly`, e),
    );
  }
}

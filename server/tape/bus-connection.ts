// The bus's own PostgreSQL connection, outside the store's pool (a pooled
// connection would be handed to others and LISTEN with it): it LISTENs, sends
// the bus's broadcasts and, when it is lost (server restart, admin kill, a
// dead network found by the heartbeat), reconnects with backoff, never crashing.
import pg from "pg";
import type { BusHealth } from "./bus";

const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
const MAX_BACKOFF_MS = 5_000;
const QUERY_TIMEOUT_MS = 10_000;

export type ConnectionOptions = {
  url: string;
  /** Shown in pg_stat_activity as `podwatch-bus:<node>`, so an operator (or a test) can find it. */
  node: string;
  channels: string[];
  onNotification: (channel: string, payload: string | undefined) => void;
  /**
   * Runs after each LISTEN, before the bus counts as healthy: `lostAt` is when the previous
   * connection (or a failed first attempt) was lost; null for a first attempt that listens. What it reads on `client` is consistent with
   * the notifications that follow, as they were being listened for before it ran.
   */
  onListening: (client: pg.Client, lostAt: Date | null) => Promise<void>;
};

export class BusConnection {
  private client: pg.Client | null = null;
  private healthy = false;
  private everListened = false;
  private lostAt: Date | null = null;
  private lastError = "not connected yet";
  private attempts = 0;
  private retry: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly dead = new WeakSet<pg.Client>();
  private closed = false;

  constructor(private readonly o: ConnectionOptions) {}

  /** Resolves after the first attempt, listening or not (then it keeps trying in the background). */
  start(): Promise<void> {
    return this.connect();
  }

  health(): BusHealth {
    if (this.healthy) return { ok: true };
    const since = this.lostAt ? ` since ${this.lostAt.toISOString()}` : "";
    return {
      ok: false,
      detail: `the bus is not listening to PostgreSQL${since} (${this.lastError}); reconnect attempts: ${this.attempts}`,
    };
  }

  /** Sends a NOTIFY on this connection; false when not connected (the caller says what that loses). */
  notify(channel: string, payload: string): boolean {
    const client = this.client;
    if (!this.healthy || !client) return false;
    client.query("SELECT pg_notify($1, $2)", [channel, payload]).catch((e) => this.lost(client, e));
    return true;
  }

  async close() {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    this.healthy = false;
    if (client) {
      this.dead.add(client);
      await client.end().catch(() => {});
    }
  }

  private async connect() {
    const client = new pg.Client({
      connectionString: this.o.url,
      application_name: `podwatch-bus:${this.o.node}`.slice(0, 63),
      keepAlive: true,
      connectionTimeoutMillis: 5_000,
      // A dead network while it sets up (LISTEN, the catch-up query) must fail the attempt, not hang it:
      // the heartbeat only starts once it listens. The bus's own queries are all quick.
      query_timeout: QUERY_TIMEOUT_MS,
      statement_timeout: QUERY_TIMEOUT_MS,
      // And the server notices a vanished node (its LISTEN would otherwise linger) within ~25 s.
      options: "-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3",
    });
    client.on("error", (e) => this.lost(client, e));
    client.on("end", () => this.lost(client, new Error("the connection ended")));
    client.on("notification", (m) => {
      try {
        this.o.onNotification(m.channel, m.payload);
      } catch (e) {
        console.error("podwatch: a listener of the bus failed on another node's notification", e); // inside the driver's parser: must not escape
      }
    });
    try {
      await client.connect();
      for (const channel of this.o.channels) await client.query(`LISTEN ${channel}`);
      if (this.closed) return void (await client.end().catch(() => {}));
      this.client = client;
      // lostAt is null only the very first time: a first attempt that failed counts as an outage from then.
      await this.o.onListening(client, this.lostAt);
    } catch (e) {
      return this.lost(client, e);
    }
    if (this.dead.has(client)) return; // lost while catching up: the next connection catches up again
    if (this.everListened)
      console.error(
        `podwatch: the bus listens to PostgreSQL again (node ${this.o.node}, after ${Date.now() - this.lostAt!.getTime()} ms)`,
      );
    this.healthy = true;
    this.everListened = true;
    this.lostAt = null;
    this.attempts = 0;
    this.heartbeat = setInterval(() => this.beat(client), HEARTBEAT_MS).unref();
  }

  /** A connection cut without a word (a dead network) would otherwise look healthy forever. */
  private beat(client: pg.Client) {
    const timeout = setTimeout(
      () => this.lost(client, new Error("heartbeat timed out")),
      HEARTBEAT_TIMEOUT_MS,
    );
    client.query("SELECT 1").then(
      () => clearTimeout(timeout),
      (e) => (clearTimeout(timeout), this.lost(client, e)),
    );
  }

  private lost(client: pg.Client, e: unknown) {
    if (this.dead.has(client)) return;
    this.dead.add(client);
    client.removeAllListeners("notification");
    client.end().catch(() => {});
    this.lastError = e instanceof Error ? e.message : String(e);
    if (this.client === client) {
      this.client = null;
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
    }
    if (this.healthy || !this.lostAt) {
      this.lostAt ??= new Date();
      console.error(
        `podwatch: the bus lost its PostgreSQL listener (${this.lastError}); live events from other nodes wait until it reconnects`,
      );
    }
    this.healthy = false;
    if (this.closed || this.retry) return;
    const delay = Math.min(100 * 2 ** this.attempts, MAX_BACKOFF_MS);
    this.attempts++;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, delay);
  }
}

// The per-key request budget on PostgreSQL, shared by every node without a database round trip
// per request. Every API request passes this limit, so an upsert on one row per token (one
// commit each, all queued on that row's lock) capped a busy agent's ingest at a few hundred
// events a second. Here a node decides from what it knows (the key's count in the shared table
// when it last looked, plus what it admitted since) and adds its admissions to the table in one
// statement every FLUSH_MS. A node first seeing a key in a window reads the table once, so a
// budget spent elsewhere is known at once; what other nodes admit is learnt at the next flush,
// so all nodes together can overshoot by what they admit in one flush interval. Windows are
// fixed minutes of the wall clock, the same on every node. Refused requests are not counted.
import type pg from "pg";

const FLUSH_MS = 250;
/** Keys remembered at once (tokens and addresses of this window): past it, idle ones are forgotten. */
const MAX_KEYS = 100_000;

type Entry = { window: number; shared: number; pending: number; ready: Promise<void> | null };
export type Admission = { remainingPoints: number };

export class BatchedSharedLimiter {
  private entries = new Map<string, Entry>();
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly keyPrefix: string,
    private readonly points: number,
    private readonly windowMs = 60_000,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  /** Resolves when admitted; rejects with `{ msBeforeNext }` when the key's budget for this window is spent. */
  async consume(key: string): Promise<Admission> {
    const entry = this.entryFor(key);
    if (entry.ready) await entry.ready;
    const used = entry.shared + entry.pending;
    if (used >= this.points)
      throw {
        msBeforeNext: Math.max(0, (entry.window + 1) * this.windowMs - Date.now()),
        remainingPoints: 0,
      };
    entry.pending++;
    return { remainingPoints: this.points - used - 1 };
  }

  /** Adds what this node admitted to the shared counts and learns theirs (tests call it to skip the wait). */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => (this.flushing = null));
    return this.flushing;
  }

  stop() {
    clearInterval(this.timer);
  }

  private entryFor(key: string): Entry {
    const window = Math.floor(Date.now() / this.windowMs);
    const known = this.entries.get(key);
    if (known && known.window === window) return known;
    if (this.entries.size >= MAX_KEYS) this.forgetIdle(window);
    const entry: Entry = { window, shared: 0, pending: 0, ready: null };
    entry.ready = this.readShared(key, entry);
    this.entries.set(key, entry);
    return entry;
  }

  private async readShared(key: string, entry: Entry) {
    try {
      const { rows } = await this.pool.query<{ points: number }>(
        `SELECT points FROM rate_limit WHERE key = $1 AND expire = $2`,
        [this.dbKey(key), this.expiry(entry.window)],
      );
      entry.shared = Math.max(entry.shared, rows[0]?.points ?? 0);
    } catch {
      // The database is not answering: count on this node alone until it does (precision, never a 500).
    } finally {
      entry.ready = null;
    }
  }

  private async write() {
    const window = Math.floor(Date.now() / this.windowMs);
    const batch: { key: string; entry: Entry; sent: number }[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.window !== window)
        this.entries.delete(key); // a past minute: nothing of it matters now
      else if (entry.pending > 0) batch.push({ key, entry, sent: entry.pending });
    }
    if (!batch.length) return;
    try {
      // A row of an earlier minute starts over; one of this minute adds what this node admitted; one
      // of a later minute (a node whose clock runs ahead) is left as it is.
      const { rows } = await this.pool.query<{ key: string; points: number }>(
        `INSERT INTO rate_limit (key, points, expire) SELECT * FROM unnest($1::text[], $2::int[], $3::bigint[])
         ON CONFLICT (key) DO UPDATE SET
           points = CASE WHEN rate_limit.expire IS NULL OR rate_limit.expire < excluded.expire THEN excluded.points
                         WHEN rate_limit.expire = excluded.expire THEN rate_limit.points + excluded.points
                         ELSE rate_limit.points END,
           expire = GREATEST(rate_limit.expire, excluded.expire)
         RETURNING key, points`,
        [batch.map((b) => this.dbKey(b.key)), batch.map((b) => b.sent), batch.map(() => this.expiry(window))],
      );
      const totals = new Map(rows.map((r) => [r.key, Number(r.points)]));
      for (const { key, entry, sent } of batch) {
        entry.pending -= sent;
        entry.shared = totals.get(this.dbKey(key)) ?? entry.shared + sent;
      }
    } catch {
      // Kept as pending, sent with the next flush; each node still holds every key to its budget.
    }
  }

  private forgetIdle(window: number) {
    for (const [key, entry] of this.entries)
      if (entry.window !== window || (entry.pending === 0 && !entry.ready)) this.entries.delete(key);
  }

  private dbKey(key: string) {
    return `${this.keyPrefix}:${key}`;
  }

  /** The window's end (ms): the row's `expire`, which the library's sweep of expired rows also reads. */
  private expiry(window: number) {
    return (window + 1) * this.windowMs;
  }
}

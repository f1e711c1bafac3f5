// One upload into PostgreSQL: the bytes cut into 256 KiB rows as they arrive,
// written through one pooled connection inside one transaction, committed only
// with the blob's row. The connection is taken when the first chunk fills (a
// small blob holds none while its body trickles in), and only from an upload
// slot, so slow uploads never take the connections the tape needs.
import type pg from "pg";
import type { UploadSlots } from "./upload-slots";

export const CHUNK_BYTES = 256 * 1024;

/** Past the body's own idle timeout (BODY_IDLE_MS), so it only fires when that one failed to. */
const IDLE_IN_TRANSACTION_MS = 30_000;

export class ChunkUpload {
  private pieces: Buffer[] = [];
  private pending = 0;
  private idx = 0;
  private client: pg.PoolClient | null = null;
  private slotHeld = false;
  private committed = false;
  /** A connection that breaks while we wait for the client's next bytes reports it here, not as an uncaught error. */
  private lost: Error | null = null;
  private readonly onLost = (e: Error) => (this.lost ??= e);

  constructor(
    private readonly pool: pg.Pool,
    private readonly slots: UploadSlots,
    private readonly contentId: string,
    private readonly caller: string,
  ) {}

  async write(chunk: Buffer) {
    this.pieces.push(chunk);
    this.pending += chunk.length;
    while (this.pending >= CHUNK_BYTES) await this.flush(CHUNK_BYTES);
  }

  /** Writes the last chunk and the blob's row. False when another upload stored the blob first (this one rolls back). */
  async commit(sha256: string, size: number): Promise<boolean> {
    if (this.pending > 0) await this.flush(this.pending);
    const client = await this.connection();
    // Of two uploads of one blob, the second's insert waits for the first's commit, then does nothing.
    const { rowCount } = await client.query(
      `INSERT INTO blob (sha256, size, content_id, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (sha256) DO NOTHING`,
      [sha256, size, this.contentId, new Date().toISOString()],
    );
    if (rowCount !== 1) return false;
    await client.query("COMMIT");
    this.committed = true;
    return true;
  }

  /** Rolls back whatever was not committed and gives the connection and the slot back; safe to call twice. */
  async abandon() {
    const client = this.client;
    this.client = null;
    this.pieces = [];
    if (client) {
      const broken = this.committed
        ? undefined
        : await client.query("ROLLBACK").then(
            () => undefined,
            (e: Error) => e,
          );
      client.off("error", this.onLost);
      client.release(broken ?? this.lost ?? undefined); // an error destroys the connection instead of pooling it
    }
    if (this.slotHeld) this.slots.give(this.caller);
    this.slotHeld = false;
  }

  private async flush(bytes: number) {
    const all = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.pending);
    const rest = all.subarray(bytes);
    this.pieces = rest.length ? [rest] : [];
    this.pending = rest.length;
    const client = await this.connection();
    await client.query(`INSERT INTO blob_chunk (content_id, idx, data) VALUES ($1, $2, $3)`, [
      this.contentId,
      this.idx++,
      all.subarray(0, bytes),
    ]);
  }

  private async connection(): Promise<pg.PoolClient> {
    if (this.client) return this.client;
    if (!this.slotHeld) {
      await this.slots.take(this.caller);
      this.slotHeld = true;
    }
    const client = await this.pool.connect();
    client.on("error", this.onLost);
    this.client = client;
    await client.query("BEGIN");
    // Should we ever fail to end it (a bug, a hung event loop), PostgreSQL ends the transaction itself.
    await client.query(`SET LOCAL idle_in_transaction_session_timeout = '${IDLE_IN_TRANSACTION_MS}ms'`);
    return client;
  }
}

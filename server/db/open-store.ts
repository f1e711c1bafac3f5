import type { TapeStore } from "./tape-store";

/**
 * Opens (and migrates) the store the URL names: `file:` is SQLite, `postgres://` is PostgreSQL.
 * PostgreSQL only: `node` signs the store's commit notifications (the bus's name), `poolMax` caps its pool.
 */
export async function openStore(url: string, opts: { sqliteSync?: "full" | "normal"; node?: string; poolMax?: number } = {}): Promise<TapeStore> {
  if (url.startsWith("file:")) return (await import("./sqlite-store")).openSqliteStore(url, opts.sqliteSync ?? "full");
  return (await import("./postgres-store")).openPostgresStore(url, { node: opts.node, poolMax: opts.poolMax });
}

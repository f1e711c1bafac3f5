import type { TapeStore } from "./tape-store";

/**
 * Opens (and migrates) the store the URL names: `file:` is SQLite, `postgres://` is PostgreSQL.
 * `snapshotEvery`: how far a pod's stored state may lag its head, at least (snapshotLag, ./pod-state-cache.ts).
 * PostgreSQL only: `node` signs the store's commit notifications (the bus's name), `poolMax` caps its pool.
 */
export async function openStore(
  url: string,
  opts: { sqliteSync?: "full" | "normal"; node?: string; poolMax?: number; snapshotEvery?: number } = {},
): Promise<TapeStore> {
  if (url.startsWith("file:"))
    return (await import("./sqlite-store")).openSqliteStore(
      url,
      opts.sqliteSync ?? "full",
      opts.snapshotEvery,
    );
  return (await import("./postgres-store")).openPostgresStore(url, {
    node: opts.node,
    poolMax: opts.poolMax,
    snapshotEvery: opts.snapshotEvery,
  });
}

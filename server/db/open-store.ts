import type { TapeStore } from "./tape-store";

/** Opens (and migrates) the store the URL names: `file:` is SQLite, `postgres://` is PostgreSQL. */
export async function openStore(url: string, opts: { sqliteSync?: "full" | "normal" } = {}): Promise<TapeStore> {
  if (url.startsWith("file:")) return (await import("./sqlite-store")).openSqliteStore(url, opts.sqliteSync ?? "full");
  return (await import("./postgres-store")).openPostgresStore(url);
}

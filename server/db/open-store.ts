import type { TapeStore } from "./tape-store";

/** Opens (and migrates) the store the URL names: `file:` is SQLite, `postgres://` is PostgreSQL. */
export async function openStore(url: string): Promise<TapeStore> {
  if (url.startsWith("file:")) return (await import("./sqlite-store")).openSqliteStore(url);
  return (await import("./postgres-store")).openPostgresStore(url);
}

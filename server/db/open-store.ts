import { resolve } from "node:path";
import type { TapeStore } from "./tape-store";

/** The file a `file:` URL names. Here, not in sqlite-store, so PostgreSQL never loads the SQLite driver. */
export function sqlitePath(url: string): string {
  return resolve(url.replace(/^file:/, ""));
}

/** Opens (and migrates) the store the URL names: `file:` is SQLite, `postgres://` is PostgreSQL. */
export async function openStore(url: string, opts: { sqliteSync?: "full" | "normal" } = {}): Promise<TapeStore> {
  if (url.startsWith("file:")) return (await import("./sqlite-store")).openSqliteStore(url, opts.sqliteSync ?? "full");
  return (await import("./postgres-store")).openPostgresStore(url);
}

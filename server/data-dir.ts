// Where the server keeps its own files (auth secret, VAPID keys, blobs): beside
// the SQLite file, or ./data (of the working directory) for PostgreSQL.
import { dirname, join } from "node:path";
import { sqlitePath } from "./db/sqlite-path";

export function dataDir(databaseUrl: string): string {
  return databaseUrl.startsWith("file:") ? dirname(sqlitePath(databaseUrl)) : join(process.cwd(), "data");
}

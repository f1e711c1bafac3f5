import { resolve } from "node:path";

/** The file a `file:` URL names. Its own module, so PostgreSQL never loads the SQLite driver and no store imports the opener. */
export function sqlitePath(url: string): string {
  return resolve(url.replace(/^file:/, ""));
}

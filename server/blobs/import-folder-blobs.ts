// Upgrading a PostgreSQL installation whose blobs were files in the data folder
// (<data>/blobs, before blobs moved into the database): at start, every file whose
// blob the database lacks is streamed in through the ordinary upload path — hashed
// and checked against its name, in chunks, never whole in memory. Under an advisory
// lock, so nodes starting together take turns and the second finds nothing to do.
// The files stay: the folder is the operator's to delete once the import is trusted,
// and a node started from an older version (a rollback) still finds them.
// A database whose tape has no evidence bundle names no blob, so nothing is imported
// into it: a folder left by another installation (./data of a developer's checkout,
// which every PostgreSQL test server shares) is not copied into every new database.
import { createReadStream, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type pg from "pg";
import type { BlobStore } from "./blob-store";
import { advisoryLocks } from "../db/advisory-locks";

const SHA256 = /^[0-9a-f]{64}$/;

export async function importFolderBlobs(
  pool: pg.Pool,
  blobs: BlobStore,
  dir: string,
): Promise<{ imported: number; refused: number }> {
  const files = await missing(pool, blobFiles(dir));
  if (files.length === 0 || !(await hasEvidence(pool))) return { imported: 0, refused: 0 };
  const lock = await pool.connect();
  let imported = 0;
  let refused = 0;
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [advisoryLocks.blobImport]);
    for (const { sha256, path } of files) {
      if (await blobs.stat(sha256)) continue;
      try {
        await blobs.put(sha256, createReadStream(path), { caller: "folder-import" });
        imported++;
      } catch (e) {
        refused++; // a torn or altered file: it stays where it is, and is not served
        console.warn(`podwatch: ${path} was not imported into the database: ${(e as Error).message}`);
      }
    }
  } finally {
    await lock.query("SELECT pg_advisory_unlock($1)", [advisoryLocks.blobImport]).catch(() => {});
    lock.release();
  }
  if (imported || refused) {
    console.log(
      `podwatch: imported ${imported} blob(s) from ${dir} into the database${refused ? `, ${refused} refused (see above)` : ""}; the files are left in place and are no longer read`,
    );
  }
  return { imported, refused };
}

/** The files whose blob the database lacks (one query: after the import, every start asks again). */
async function missing(pool: pg.Pool, files: { sha256: string; path: string }[]) {
  if (files.length === 0) return files;
  const { rows } = await pool.query<{ sha256: string }>(`SELECT sha256 FROM blob WHERE sha256 = ANY($1)`, [
    files.map((f) => f.sha256),
  ]);
  const stored = new Set(rows.map((r) => r.sha256));
  return files.filter((f) => !stored.has(f.sha256));
}

async function hasEvidence(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query(`SELECT 1 FROM event WHERE type = 'evidence.bundle' LIMIT 1`);
  return rows.length > 0;
}

/** `<dir>/<first two hex digits>/<sha256>`, as the file store lays them out (its tmp/ is not a blob). */
function blobFiles(dir: string): { sha256: string; path: string }[] {
  if (!existsSync(dir)) return [];
  const files: { sha256: string; path: string }[] = [];
  for (const prefix of readdirSync(dir)) {
    if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
    for (const name of readdirSync(join(dir, prefix))) {
      if (SHA256.test(name) && name.startsWith(prefix))
        files.push({ sha256: name, path: join(dir, prefix, name) });
    }
  }
  return files;
}

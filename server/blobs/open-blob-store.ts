// Where this node keeps blobs: a folder every node shares when PODWATCH_BLOB_DIR is
// set; else, on PostgreSQL, the database (so a blob stored through one node is
// readable through all; blobs an earlier version kept in the data folder are imported
// at start); else (SQLite, one node) the data folder beside the database.
import { join } from "node:path";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import { dataDir } from "../data-dir";
import type { BlobStore } from "./blob-store";
import { FileBlobStore } from "./file-blob-store";
import { PostgresBlobStore } from "./postgres-blob-store";
import { importFolderBlobs } from "./import-folder-blobs";

export async function openBlobStore(
  config: Pick<Config, "blobDir" | "blobMaxBytes" | "databaseUrl">,
  store: Pick<TapeStore, "pool">,
): Promise<BlobStore> {
  if (config.blobDir) return new FileBlobStore(config.blobDir, config.blobMaxBytes, true);
  const folder = join(dataDir(config.databaseUrl), "blobs");
  if (store.pool) {
    // A quarter of the pool at most streams uploads; appends and reads keep the rest.
    const blobs = new PostgresBlobStore(
      store.pool,
      config.blobMaxBytes,
      Math.max(1, Math.floor((store.pool.options.max ?? 10) / 4)),
    );
    // Blobs this installation kept in its data folder before they moved into the database.
    await importFolderBlobs(store.pool, blobs, folder);
    return blobs;
  }
  return new FileBlobStore(folder, config.blobMaxBytes);
}

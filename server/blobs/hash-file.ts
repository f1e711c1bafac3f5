import { createReadStream } from "node:fs";
import { hashChunks } from "../wire/hash";

/** A file's SHA-256 and size, streamed. Used by the blob store (the SDK has its own, from the same helper). */
export const hashFile = (path: string): Promise<{ sha256: string; size: number }> => hashChunks(createReadStream(path));

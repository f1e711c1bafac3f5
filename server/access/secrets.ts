// Secrets and credentials: generated from the OS's CSPRNG, compared in
// constant time, stored only as SHA-256 hashes.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { sha256Hex } from "../domain/hash-chain";
import type { TapeStore } from "../db/tape-store";
import { readSharedSecret, sharedSecret } from "./shared-secret";

export const AGENT_TOKEN_PREFIX = "pwa_";
export const SHARE_TOKEN_PREFIX = "pws_";
export const INVITE_TOKEN_PREFIX = "pwi_";

export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
export const hashSecret = (secret: string) => sha256Hex(secret);

export function sameSecret(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

/** Printable ASCII without spaces, long enough to sign sessions with (as PODWATCH_AUTH_SECRET). */
const VALID_SECRET = /^[\x21-\x7e]{32,1024}$/;

/**
 * Reads the secret kept at `path`, creating it (0600) on first start. A file
 * that is present but holds no valid secret (a crash during the first start
 * can leave it empty) stops the server: Better Auth would otherwise sign
 * sessions with its built-in, public default.
 */
export function persistentSecret(path: string): string {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomically(path, `${randomBytes(32).toString("base64url")}\n`);
  }
  // Read back even when we wrote it: another process starting at the same moment may have won.
  const secret = readFileSync(path, "utf8").replace(/\r?\n$/, "");
  if (VALID_SECRET.test(secret)) return secret;
  throw new Error(
    `${path} is present but is not a valid secret (it is empty, shorter than 32 characters, or has spaces, ` +
      `control characters or more than one line) — a crash during the first start can leave it so. ` +
      `Delete the file to have a new secret generated at the next start (this signs everyone out), ` +
      `write a secret of 32+ printable characters into it, or set PODWATCH_AUTH_SECRET.`,
  );
}

/**
 * The auth secret on PostgreSQL, where every node must sign sessions alike: the installation's
 * row, created on first start — from `legacyPath` (data/auth-secret) when this node kept one
 * there before the upgrade, so its people stay signed in, else new. A file that disagrees with
 * the row (a second node's own old file) loses, and says so. `fromEnv` (PODWATCH_AUTH_SECRET) still
 * wins, but a node whose value differs from the row signs sessions no other node accepts: it says so.
 */
export async function installationAuthSecret(
  store: TapeStore,
  legacyPath: string,
  fromEnv?: string,
): Promise<string> {
  if (fromEnv) {
    const row = await readSharedSecret(store, "auth-secret");
    if (row !== null && row !== fromEnv) {
      console.warn(
        "podwatch: PODWATCH_AUTH_SECRET differs from the installation's auth secret in the database, which nodes without it use: sessions signed on this node will not be accepted by those nodes, nor theirs here. Set the same PODWATCH_AUTH_SECRET on every node.",
      );
    }
    return fromEnv;
  }
  const fresh = () =>
    existsSync(legacyPath) ? persistentSecret(legacyPath) : randomBytes(32).toString("base64url");
  const secret = await sharedSecret(store, "auth-secret", fresh);
  if (!VALID_SECRET.test(secret))
    throw new Error(
      "podwatch: the installation's auth-secret in the database is not a valid secret (32+ printable characters); set PODWATCH_AUTH_SECRET or delete the row to have one generated (this signs everyone out)",
    );
  if (existsSync(legacyPath) && readFileSync(legacyPath, "utf8").replace(/\r?\n$/, "") !== secret) {
    console.warn(
      `podwatch: ${legacyPath} differs from the installation's auth secret in the database; the database's is used (every node signs sessions with it)`,
    );
  }
  return secret;
}

/**
 * The file appears complete or not at all: written and fsynced under a temporary
 * name in the same folder, then linked into place (which, unlike rename, never
 * replaces a file another process created meanwhile), and the folder fsynced.
 */
export function writeFileAtomically(path: string, content: string) {
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(temp, "wx", 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EEXIST") {
      if (code !== "EPERM" && code !== "ENOTSUP" && code !== "ENOSYS") throw e;
      renameSync(temp, path); // a filesystem without hard links
    }
  } finally {
    rmSync(temp, { force: true });
  }
  fsyncDir(dirname(path));
}

function fsyncDir(dir: string) {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

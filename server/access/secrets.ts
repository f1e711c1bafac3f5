// Secrets and credentials: generated from the OS's CSPRNG, compared in
// constant time, stored only as SHA-256 hashes.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { sha256Hex } from "../domain/hash-chain";

export const AGENT_TOKEN_PREFIX = "pwa_";
export const SHARE_TOKEN_PREFIX = "pws_";

export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString("base64url")}`;
export const hashSecret = (secret: string) => sha256Hex(secret);

export function sameSecret(a: string, b: string): boolean {
  const x = createHash("sha256").update(a).digest();
  const y = createHash("sha256").update(b).digest();
  return timingSafeEqual(x, y);
}

/** Reads the secret kept at `path`, creating it (0600) on first start. */
export function persistentSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  mkdirSync(dirname(path), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}

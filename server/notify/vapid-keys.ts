// The server's VAPID key pair (RFC 8292): push services accept our pushes only
// signed with it, and browsers subscribe with its public half. Generated into
// the data folder on first start, like the auth secret (0600, written atomically).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import webpush from "web-push";
import { writeFileAtomically } from "../access/secrets";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** An uncompressed P-256 point (65 bytes) and a 32-byte scalar, base64url. */
const valid = (k: { publicKey?: unknown; privateKey?: unknown }) =>
  typeof k.publicKey === "string" && typeof k.privateKey === "string" &&
  Buffer.from(k.publicKey, "base64url").length === 65 && Buffer.from(k.privateKey, "base64url").length === 32;

/**
 * The keys from the environment when both are set, else from `path` (created on first
 * start). A file present but unreadable as keys stops the start: replacing it silently
 * would cut every subscribed device off.
 */
export function vapidKeys(path: string, env: { publicKey?: string; privateKey?: string; subject: string }): VapidKeys {
  if (env.publicKey && env.privateKey) {
    if (!valid(env)) throw new Error("PODWATCH_VAPID_PUBLIC_KEY / PODWATCH_VAPID_PRIVATE_KEY are not a P-256 key pair in base64url (generate one with `npx web-push generate-vapid-keys`)");
    return { publicKey: env.publicKey, privateKey: env.privateKey, subject: env.subject };
  }
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomically(path, `${JSON.stringify(webpush.generateVAPIDKeys())}\n`);
  }
  // Read back even when we wrote it: another process starting at the same moment may have won.
  let keys: { publicKey?: unknown; privateKey?: unknown } = {};
  try {
    keys = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    // reported below
  }
  if (!valid(keys)) {
    throw new Error(`${path} is present but holds no VAPID key pair. Delete it to have a new pair generated at the next start (every device must then turn push on again), or set PODWATCH_VAPID_PUBLIC_KEY and PODWATCH_VAPID_PRIVATE_KEY.`);
  }
  return { publicKey: keys.publicKey as string, privateKey: keys.privateKey as string, subject: env.subject };
}

/** VAPID's `sub`: a mailto: or an https: URL where the push service can reach the operator. */
export function vapidSubject(explicit: string | undefined, publicUrl: string): string {
  if (explicit) return explicit;
  return publicUrl.startsWith("https://") ? publicUrl : "mailto:podwatch@localhost";
}

// The server's VAPID key pair (RFC 8292): push services accept our pushes only
// signed with it, and browsers subscribe with its public half. Generated on first start,
// like the auth secret: into the data folder on SQLite (0600, written atomically), into the
// database on PostgreSQL, where every node must push with the same pair.
import { createECDH } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomically } from "../access/secrets";
import { readSharedSecret, sharedSecret } from "../access/shared-secret";
import type { TapeStore } from "../db/tape-store";

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/** An uncompressed P-256 point (65 bytes) and a 32-byte scalar, base64url. */
const valid = (k: { publicKey?: unknown; privateKey?: unknown }) =>
  typeof k.publicKey === "string" &&
  typeof k.privateKey === "string" &&
  Buffer.from(k.publicKey, "base64url").length === 65 &&
  Buffer.from(k.privateKey, "base64url").length === 32;

/** A new pair, as web-push's generateVAPIDKeys makes it; node:crypto alone, so no server loads web-push to start. */
export function newVapidKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey(); // leading zero bytes are dropped: pad back to 32
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString("base64url"),
  };
}

/**
 * The keys from the environment when both are set, else from `path` (created on first
 * start). A file present but unreadable as keys stops the start: replacing it silently
 * would cut every subscribed device off.
 */
export function vapidKeys(
  path: string,
  env: { publicKey?: string; privateKey?: string; subject: string },
): VapidKeys {
  if (env.publicKey && env.privateKey) {
    if (!valid(env))
      throw new Error(
        "PODWATCH_VAPID_PUBLIC_KEY / PODWATCH_VAPID_PRIVATE_KEY are not a P-256 key pair in base64url (generate one with `npx web-push generate-vapid-keys`)",
      );
    return { publicKey: env.publicKey, privateKey: env.privateKey, subject: env.subject };
  }
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomically(path, `${JSON.stringify(newVapidKeyPair())}\n`);
  }
  // Read back even when we wrote it: another process starting at the same moment may have won.
  const keys = parse(readFileSync(path, "utf8"));
  if (!keys) {
    throw new Error(
      `${path} is present but holds no VAPID key pair. Delete it to have a new pair generated at the next start (every device must then turn push on again), or set PODWATCH_VAPID_PUBLIC_KEY and PODWATCH_VAPID_PRIVATE_KEY.`,
    );
  }
  return { ...keys, subject: env.subject };
}

/**
 * The keys from the environment when both are set, else the installation's pair in the database,
 * created on first start — from `legacyPath` (data/vapid-keys.json) when this node kept a valid
 * pair there before the upgrade, so its subscribed devices keep receiving, else new. A pair from
 * the environment that differs from the row is used, with a warning (pushes will not cross nodes).
 */
export async function installationVapidKeys(
  store: TapeStore,
  legacyPath: string,
  env: { publicKey?: string; privateKey?: string; subject: string },
): Promise<VapidKeys> {
  if (env.publicKey && env.privateKey) {
    const row = await readSharedSecret(store, "vapid-keys");
    if (row !== null && parse(row)?.publicKey !== env.publicKey) {
      console.warn(
        "podwatch: PODWATCH_VAPID_PUBLIC_KEY differs from the installation's VAPID key pair in the database, which nodes without it use: devices subscribed through one kind of node will not accept pushes from the other. Set the same pair on every node.",
      );
    }
    return vapidKeys(legacyPath, env);
  }
  const adopt = () => {
    const fromFile = existsSync(legacyPath) ? parse(readFileSync(legacyPath, "utf8")) : null;
    return JSON.stringify(fromFile ?? newVapidKeyPair());
  };
  const keys = parse(await sharedSecret(store, "vapid-keys", adopt));
  if (!keys)
    throw new Error(
      "podwatch: the installation's vapid-keys in the database hold no VAPID key pair; set PODWATCH_VAPID_PUBLIC_KEY and PODWATCH_VAPID_PRIVATE_KEY, or delete the row to have a new pair generated (every device must then turn push on again)",
    );
  return { ...keys, subject: env.subject };
}

function parse(text: string): { publicKey: string; privateKey: string } | null {
  try {
    const k = JSON.parse(text) as { publicKey?: unknown; privateKey?: unknown };
    return valid(k) ? { publicKey: k.publicKey as string, privateKey: k.privateKey as string } : null;
  } catch {
    return null;
  }
}

/** VAPID's `sub`: a mailto: or an https: URL where the push service can reach the operator. */
export function vapidSubject(explicit: string | undefined, publicUrl: string): string {
  if (explicit) return explicit;
  return publicUrl.startsWith("https://") ? publicUrl : "mailto:podwatch@localhost";
}

// The installation's Ed25519 key for signed exports. Created the first time any node
// needs it and kept in the database, so every node signs with the same key and a restart keeps
// it: directories that pinned the public key go on trusting exports. Two nodes racing to create
// it both insert the same fixed id; the loser's insert fails and it reads the winner's row.
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { TapeStore } from "../db/tape-store";

export const SIGNING_ALGORITHM = "Ed25519";
const ROW_ID = "signals-export";

export type SigningKey = {
  keyId: string;
  algorithm: typeof SIGNING_ALGORITHM;
  publicKeyPem: string;
  privateKey: KeyObject;
};

const cached = new WeakMap<TapeStore, Promise<SigningKey>>();

/** The key, created on first use; read once per process (the row never changes). */
export function signingKey(store: TapeStore): Promise<SigningKey> {
  let key = cached.get(store);
  if (!key) {
    key = loadOrCreate(store);
    cached.set(store, key);
    key.catch(() => cached.delete(store)); // a failed read (database down) is tried again next time
  }
  return key;
}

/** Names the key by its public half, so a verifier can tell which key signed a record. */
export const keyIdOf = (publicKeyPem: string) =>
  `ed25519-${createHash("sha256").update(publicKeyPem.trim()).digest("hex").slice(0, 16)}`;

async function loadOrCreate(store: TapeStore): Promise<SigningKey> {
  let row = await store.prisma.signingKey.findUnique({ where: { id: ROW_ID } });
  if (!row) {
    const pair = generateKeyPairSync("ed25519", {
      publicKeyEncoding: { type: "spki", format: "pem" },
      privateKeyEncoding: { type: "pkcs8", format: "pem" },
    });
    await store.prisma.signingKey
      .create({
        data: {
          id: ROW_ID,
          keyId: keyIdOf(pair.publicKey),
          algorithm: SIGNING_ALGORITHM,
          publicKey: pair.publicKey,
          privateKey: pair.privateKey,
          createdAt: new Date().toISOString(),
        },
      })
      .catch(() => {}); // another node won the race: its row is read below
    row = await store.prisma.signingKey.findUnique({ where: { id: ROW_ID } });
    if (!row) throw new Error("podwatch: the signing key could not be created");
  }
  if (row.algorithm !== SIGNING_ALGORITHM)
    throw new Error(`podwatch: the stored signing key is ${row.algorithm}, not ${SIGNING_ALGORITHM}`);
  return {
    keyId: row.keyId,
    algorithm: SIGNING_ALGORITHM,
    publicKeyPem: row.publicKey,
    privateKey: createPrivateKey(row.privateKey),
  };
}

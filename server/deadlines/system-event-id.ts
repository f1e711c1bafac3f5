// The installation's key for the server's own event ids (server/shared/system-event-ids.ts says
// why they are keyed): derived from the installation's signing key, which is in the database, so
// every node derives the same ids and a restart keeps them.
import { createHash } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import { signingKey } from "../signals/signing-key";
import { keyedEventIds, type SystemEventIds } from "../shared/system-event-ids";

const LABEL = "podwatch system event ids v1\0";

/** The installation's ids: the secret is a labelled hash of the signing key's private half (never shown, never the key itself). */
export async function installationEventIds(store: TapeStore): Promise<SystemEventIds> {
  const { privateKey } = await signingKey(store);
  const secret = createHash("sha256")
    .update(LABEL)
    .update(privateKey.export({ type: "pkcs8", format: "der" }))
    .digest();
  return keyedEventIds(secret);
}

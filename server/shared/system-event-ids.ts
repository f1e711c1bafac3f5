// The server's own events (deadline outcomes, stale agents, crossed budgets, OTLP spans' events)
// get ids derived from what they are about, so the same outcome appended twice (a retry, a
// restart, two nodes) is stored once: the tape dedupes ids. The derivation is keyed with a secret
// of the installation: were the id a plain hash of public facts, an agent could append any event
// under it first, and the server's own append would then be refused (409 event_id_taken) — a
// budget that never fires. The secret is read from the database by
// server/deadlines/system-event-id.ts, so every node derives the same ids and a restart keeps them.
import { createHmac } from "node:crypto";
import { uuidFromKey } from "../wire/hash";

/** The public name of an outcome (a UUID from the SHA-256 of its key); the tape's id is this name sealed (`SystemEventIds`). */
export const systemEventName = (key: string): string => uuidFromKey(key);

/** Turns an outcome's public name into the id the server appends it under. */
export type SystemEventIds = (name: string) => string;

/** Ids keyed with `secret`: the same name, the same id on every node with the same secret; unguessable without it. */
export function keyedEventIds(secret: Uint8Array): SystemEventIds {
  return (name) => uuidFromKey(createHmac("sha256", secret).update(name).digest("hex"));
}

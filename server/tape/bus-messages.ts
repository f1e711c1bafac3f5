// The bus events other than commits (a pod created, a credential revoked)
// travel whole between nodes, on their own channel: they are a few ids.
// Commits travel as server/db/commit-notice.ts, sent by the store itself.
import { z } from "zod";
import type { BusEvents } from "./bus";

export const BROADCAST_CHANNEL = "podwatch_bus";

const ZBroadcast = z.discriminatedUnion("e", [
  z.object({ n: z.string(), e: z.literal("pod-created"), d: z.object({ podId: z.string().min(1) }) }),
  z.object({
    n: z.string(),
    e: z.literal("credential-revoked"),
    d: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("agent-token"), tokenId: z.string().min(1) }),
      z.object({ kind: z.literal("share-link"), linkId: z.string().min(1) }),
    ]),
  }),
]);
export type Broadcast = z.infer<typeof ZBroadcast>;
export type BroadcastEvent = Broadcast["e"];

export function broadcastPayload<K extends BroadcastEvent>(n: string, e: K, d: BusEvents[K]): string {
  return JSON.stringify({ n, e, d });
}

/** Null for anything malformed (anyone who can connect to the database can NOTIFY). */
export function parseBroadcast(payload: string | undefined): Broadcast | null {
  try {
    const parsed = ZBroadcast.safeParse(JSON.parse(payload ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

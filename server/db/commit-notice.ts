// The notification a PostgreSQL commit sends to every node's bus
// (server/tape/postgres-bus.ts): a pod and the seqs the commit added, never the
// events (readers fetch them by seq, so a lost or coalesced notification only
// costs latency). Sent inside the append transaction, it is delivered at
// commit, in commit order. Here, below the bus, so the store need not import it.
import { randomBytes } from "node:crypto";
import { z } from "zod";

export const TAPE_CHANNEL = "podwatch_tape";

/**
 * Seqs `f..t` of pod `p`, committed by node `n`. `r`: sent again after a commit whose outcome `n`
 * did not learn (its connection dropped at COMMIT), so `n`'s own bus acts on it too.
 */
export type CommitNotice = { n: string; p: string; f: number; t: number; r?: 1 };

/** The payload (compact: one per pod per commit, far under NOTIFY's 8000 bytes). */
export const commitNotice = (n: string, p: string, f: number, t: number, recovered = false) =>
  JSON.stringify((recovered ? { n, p, f, t, r: 1 } : { n, p, f, t }) satisfies CommitNotice);

const ZSeq = z.number().int().min(1);
const ZCommitNotice = z
  .object({ n: z.string(), p: z.string().min(1), f: ZSeq, t: ZSeq, r: z.literal(1).optional() })
  .refine((x) => x.f <= x.t);

/** Null for anything that is not a well-formed notice (anyone who can connect to the database can NOTIFY). */
export function parseCommitNotice(payload: string | undefined): CommitNotice | null {
  try {
    const parsed = ZCommitNotice.safeParse(JSON.parse(payload ?? ""));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The name a process signs its notifications with: the configured node id and a
 * random tag, so two processes given the same PODWATCH_NODE_ID (or two servers
 * in one test process) still hear each other instead of each skipping the other as itself.
 */
export function busNodeName(nodeId: string): string {
  return `${nodeId}~${randomBytes(4).toString("hex")}`;
}

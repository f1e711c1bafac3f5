// Entries the spool had to drop (it was full, a line was unreadable, or the server refused one
// for good) are counted; once podwatch is reachable again the count lands on the tape as a
// notice, so nobody mistakes a gap in a session for a quiet agent.
import { randomUUID } from "node:crypto";
import type { HookSender } from "./hook-sender";
import type { Spool } from "./spool";

export async function reportDropped(spool: Spool, send: HookSender, deadline: number): Promise<void> {
  if (!spool.hasDropped()) return; // the usual case: no lock, no file work on every hook
  const n = spool.locked(() => spool.takeDroppedLocked());
  if (!n) return;
  const event = {
    id: randomUUID(),
    type: "agent.notified",
    ts: new Date().toISOString(),
    body: {
      title: "podwatch hook spool",
      notificationType: "podwatch_spool_dropped",
      message: `${n} hook event${n === 1 ? " was" : "s were"} lost while podwatch was unreachable (the local spool was full, or the server refused them)`,
    },
  };
  try {
    await send.events([event], Math.max(1, Math.min(5000, deadline - Date.now())));
  } catch {
    spool.locked(() => spool.countDroppedLocked(n)); // told next time
  }
}

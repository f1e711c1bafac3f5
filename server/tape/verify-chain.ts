// Chain verification. A walk re-hashes events page by page and gives the event
// loop back between pages (SQLite reads are synchronous), so a long tape never
// freezes other requests. The tape is append-only, so once this process has
// verified seq 1..N ending in hash H, that anchor is remembered per pod and the
// next walk re-hashes only N+1.. — after checking that the stored event N still
// carries H. `full` re-walks from seq 1: the check for someone who edited the
// database behind the server's back without re-hashing what follows.
import { setImmediate as nextTurn } from "node:timers/promises";
import { ChainWalker, GENESIS_HASH, type ChainCheck } from "../domain/hash-chain";
import type { TapeStore } from "../db/tape-store";
import { notFound } from "../domain/errors";

/** Small enough that one page (read + re-hash) holds the event loop for a few milliseconds. */
const PAGE = 500;

type Anchor = { seq: number; hash: string };
const anchorsByStore = new WeakMap<TapeStore, Map<string, Anchor>>();

function anchorsOf(store: TapeStore): Map<string, Anchor> {
  let anchors = anchorsByStore.get(store);
  if (!anchors) anchorsByStore.set(store, (anchors = new Map()));
  return anchors;
}

/** Verifies a pod's chain up to its head: from the remembered anchor, or (`full`, or nothing remembered) from seq 1. */
export async function verifyChain(
  store: TapeStore,
  podId: string,
  opts: { full?: boolean } = {},
): Promise<ChainCheck> {
  // The walk stops at the head read here, so events appended meanwhile never look like a broken tail.
  const head = await store.readHead(podId);
  if (!head) throw notFound("pod");
  const anchors = anchorsOf(store);
  const anchor = anchors.get(podId);
  const start =
    !opts.full && anchor && (await stillStored(store, podId, anchor))
      ? anchor
      : { seq: 0, hash: GENESIS_HASH };
  const walker = new ChainWalker(start);
  let last = start;
  const broken = (firstBadSeq: number): ChainCheck => ({ ok: false, checked: firstBadSeq - 1, firstBadSeq });
  while (last.seq < head.seq) {
    const page = await store.readEvents(podId, last.seq, Math.min(PAGE, head.seq - last.seq));
    if (page.length === 0) break;
    for (const e of page) {
      if (!walker.push(e)) return broken(walker.firstBadSeq!);
      // A chain consistent in itself but not the one verified before was re-hashed behind our back.
      if (anchor && e.seq === anchor.seq && e.hash !== anchor.hash) return broken(e.seq);
      last = e;
    }
    await nextTurn();
  }
  // The head must agree with the tape: a vanished or re-hashed tail would otherwise go unnoticed.
  if (last.seq !== head.seq) return broken(last.seq + 1);
  if (last.seq > 0 && last.hash !== head.hash) return broken(last.seq);
  if (!anchor || last.seq > anchor.seq) anchors.set(podId, { seq: last.seq, hash: last.hash });
  return { ok: true, checked: last.seq };
}

/** The anchor is trusted only while the stored event at its seq still carries the hash that was verified. */
async function stillStored(store: TapeStore, podId: string, anchor: Anchor): Promise<boolean> {
  const [row] = await store.readEvents(podId, anchor.seq - 1, 1);
  return row?.seq === anchor.seq && row.hash === anchor.hash;
}

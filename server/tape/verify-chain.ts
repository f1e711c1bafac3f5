import { ChainWalker, type ChainCheck } from "../domain/hash-chain";
import type { TapeStore } from "../db/tape-store";
import { getPod } from "../pods/read-pods";

const PAGE = 2000;

/** Re-walks a pod's whole tape from seq 1 and recomputes every hash. */
export async function verifyChain(store: TapeStore, podId: string): Promise<ChainCheck> {
  const pod = await getPod(store, podId);
  const walker = new ChainWalker();
  let after = 0;
  for (;;) {
    const page = await store.readEvents(podId, after, PAGE);
    for (const e of page) if (!walker.push(e)) return walker.result();
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.seq;
  }
  // The head must agree with the tape: a vanished tail would otherwise go unnoticed.
  if (walker.checked !== pod.eventCount) return { ok: false, checked: walker.checked, firstBadSeq: walker.checked + 1 };
  return walker.result();
}

// A tape read page by page up to a seq, giving the event loop back between pages (SQLite reads
// are synchronous), so a recomputation over a long tape never freezes other requests.
import { setImmediate as nextTurn } from "node:timers/promises";
import type { TapeStore } from "../db/tape-store";
import type { StoredEvent } from "../domain/plan-append";
import { CATCH_UP_PAGE } from "../domain/state/catch-up";

export async function* tapePages(store: TapeStore, podId: string, toSeq: number): AsyncGenerator<StoredEvent[]> {
  let after = 0;
  while (after < toSeq) {
    const page = await store.readEvents(podId, after, Math.min(CATCH_UP_PAGE, toSeq - after));
    if (!page.length) return;
    yield page;
    after = page.at(-1)!.seq;
    await nextTurn();
  }
}

// A stretch of a tape read in pages bounded by bytes, not events: an event may carry up to 1 MiB,
// so 2,000 of them is no page. The sizes of the next events come first (seq and octet_length of
// body and meta: read from the rows' headers, not their text), then each page holds as many
// events as fit in PAGE_BYTES (at least one). The caller's work is cut into slices of a few
// milliseconds with the event loop given back between them: SQLite reads are synchronous, and
// folding a page of large events is not free, so no step of a long replay holds other requests.
import type { TapeStore } from "../db/tape-store";
import type { StoredEvent } from "../domain/plan-append";
import { TimeSlices } from "../db/time-slices";

/** What one page read aims at, in bytes of event bodies and meta. */
export const PAGE_BYTES = 128 * 1024;
/** Work in one turn of the event loop (server/db/time-slices.ts). */
export const SLICE_MS = 8;
/** How many events' sizes one listing reads. */
const SIZES_AHEAD = 2000;
/** What a row costs beyond its body and meta (ids, hashes, times). */
const ROW_OVERHEAD = 200;

export type SliceOptions = {
  pageBytes?: number;
  sliceMs?: number;
  onPage?: (events: number, bytes: number) => void;
};

export type Size = { seq: number | bigint; bytes: number | bigint };

/** Seqs and sizes of up to `limit` events after `afterSeq`, up to `toSeq`. */
export function sizesAfter(
  store: TapeStore,
  podId: string,
  afterSeq: number,
  toSeq: number,
  limit = SIZES_AHEAD,
): Promise<Size[]> {
  return store.prisma.$queryRaw<
    Size[]
  >`SELECT seq, octet_length(body) + COALESCE(octet_length(meta), 0) AS bytes FROM event
    WHERE pod_id = ${podId} AND seq > ${afterSeq} AND seq <= ${toSeq} ORDER BY seq LIMIT ${limit}`;
}

/** How many of `sizes` (from `from`) make one page: as many as fit in `pageBytes`, at least one. */
export function pageLength(sizes: Size[], from: number, pageBytes: number): { count: number; bytes: number } {
  let bytes = 0;
  let count = 0;
  for (let i = from; i < sizes.length; i++) {
    const b = Number(sizes[i]!.bytes) + ROW_OVERHEAD;
    if (count > 0 && bytes + b > pageBytes) break;
    bytes += b;
    count++;
  }
  return { count, bytes };
}

/** Calls `each` with every event after `afterSeq` up to `toSeq` (or the tape's end), in seq order. */
export async function forEachEvent(
  store: TapeStore,
  podId: string,
  afterSeq: number,
  toSeq: number,
  each: (row: StoredEvent) => void,
  o: SliceOptions = {},
): Promise<void> {
  const pageBytes = o.pageBytes ?? PAGE_BYTES;
  const slices = new TimeSlices(o.sliceMs ?? SLICE_MS);
  let after = afterSeq;
  while (after < toSeq) {
    const sizes = await sizesAfter(store, podId, after, toSeq);
    if (!sizes.length) return;
    for (let i = 0; i < sizes.length;) {
      const { count, bytes } = pageLength(sizes, i, pageBytes);
      const page = await store.readEvents(podId, after, count);
      if (!page.length) return;
      for (const row of page) {
        each(row);
        await slices.pause();
      }
      o.onPage?.(page.length, bytes);
      after = page.at(-1)!.seq;
      i += page.length;
      await slices.next();
    }
  }
}

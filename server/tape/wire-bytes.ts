// What an event weighs on the wire, so every frame that carries events (a backlog
// page, a read-back from the store, a coalesced live frame) can be cut to about
// WIRE_FRAME_BYTES: one frame of a thousand 1 MB events would be a gigabyte string,
// past what V8 can build (socket.io-parser's RangeError "Invalid string length").
import type { StoredEvent } from "../domain/plan-append";
import type { TapeEvent } from "../wire/events";

/** About what a frame may weigh (bodies plus an envelope each); a frame holds at least one event. */
export const WIRE_FRAME_BYTES = 512 * 1024;
const ENVELOPE_BYTES = 300;

/** Sizes of events made from stored rows, known without serializing them again. */
const knownSizes = new WeakMap<TapeEvent, number>();

export function storedEventBytes(row: Pick<StoredEvent, "body" | "meta">): number {
  return row.body.length + (row.meta?.length ?? 0) + ENVELOPE_BYTES;
}

/** Records what `event` (made from `row`) weighs, so the live path need not serialize it to measure it. */
export function noteEventBytes(event: TapeEvent, row: Pick<StoredEvent, "body" | "meta">): TapeEvent {
  knownSizes.set(event, storedEventBytes(row));
  return event;
}

export function tapeEventBytes(event: TapeEvent): number {
  let size = knownSizes.get(event);
  if (size === undefined)
    knownSizes.set(
      event,
      (size =
        JSON.stringify(event.body ?? null).length +
        JSON.stringify(event.meta ?? null).length +
        ENVELOPE_BYTES),
    );
  return size;
}

/** How many of `items`, from the first, fit in `maxBytes` (at least one, if there is one). */
export function countFitting<T>(
  items: readonly T[],
  bytes: (item: T) => number,
  maxBytes = WIRE_FRAME_BYTES,
): number {
  let total = 0;
  for (let i = 0; i < items.length; i++) {
    total += bytes(items[i]!);
    if (total > maxBytes && i > 0) return i;
  }
  return items.length;
}

/** `items` cut into runs of at most `maxBytes` each (an item bigger than that goes alone). */
export function splitByBytes<T>(
  items: readonly T[],
  bytes: (item: T) => number,
  maxBytes = WIRE_FRAME_BYTES,
): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let total = 0;
  for (const item of items) {
    const size = bytes(item);
    if (run.length && total + size > maxBytes) {
      runs.push(run);
      run = [];
      total = 0;
    }
    run.push(item);
    total += size;
  }
  if (run.length) runs.push(run);
  return runs;
}

// Long-poll: an agent waiting for a human's word asks for events after N and
// the request stays open until some arrive (or `waitSeconds` pass). It listens
// before it reads, so an event committed in between is never missed.
import type { TapeStore } from "../db/tape-store";
import type { TapeEvent } from "../wire/events";
import type { TapeBus } from "./bus";
import { readEvents } from "./read-events";

export type WaitOptions = { after: number; limit: number; waitSeconds: number; signal: AbortSignal };

export async function waitForEvents(
  store: TapeStore,
  bus: TapeBus,
  podId: string,
  o: WaitOptions,
): Promise<TapeEvent[]> {
  if (o.waitSeconds <= 0 || o.signal.aborted) return readEvents(store, podId, o.after, o.limit);
  let wake!: () => void;
  const arrived = new Promise<void>((resolve) => (wake = resolve));
  const onCommitted = (b: { podId: string; events: TapeEvent[] }) => {
    if (b.podId === podId && (b.events.at(-1)?.seq ?? 0) > o.after) wake();
  };
  const onAbort = () => wake();
  const timer = setTimeout(wake, o.waitSeconds * 1000);
  bus.on("committed", onCommitted);
  o.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const now = await readEvents(store, podId, o.after, o.limit);
    if (now.length > 0) return now;
    await arrived;
    return o.signal.aborted ? [] : readEvents(store, podId, o.after, o.limit);
  } finally {
    clearTimeout(timer);
    bus.off("committed", onCommitted);
    o.signal.removeEventListener("abort", onAbort);
  }
}

// Fans committed events out to spectators. Events committed in the same turn
// of the event loop are coalesced into one frame per pod, so a busy pod costs
// one emit per room per turn, however many spectators watch it.
import type { TapeBus } from "../tape/bus";
import type { TapeEvent } from "../wire/events";

export type Flush = (podId: string, events: TapeEvent[]) => void;

export type Coalescer = {
  /** Sends what is waiting now; a subscriber calls it before it joins a room, so no frame straddles the join. */
  flushNow: () => void;
  stop: () => void;
};

export function coalesceCommits(bus: TapeBus, flush: Flush): Coalescer {
  let pending = new Map<string, TapeEvent[]>();
  let scheduled = false;
  const flushNow = () => {
    if (!pending.size) return;
    const frames = pending;
    pending = new Map();
    for (const [podId, evs] of frames) flush(podId, evs);
  };
  const onCommitted = ({ podId, events }: { podId: string; events: TapeEvent[] }) => {
    const list = pending.get(podId);
    if (list) list.push(...events);
    else pending.set(podId, [...events]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        flushNow();
      });
    }
  };
  bus.on("committed", onCommitted);
  return { flushNow, stop: () => bus.off("committed", onCommitted) };
}

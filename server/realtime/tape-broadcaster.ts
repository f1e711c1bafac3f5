// Fans committed events out to spectators. Events committed in the same turn
// of the event loop are coalesced into one frame per pod, so a busy pod costs
// one emit per room per turn, however many spectators watch it. A frame is cut
// by weight (server/tape/wire-bytes.ts): a turn may gather megabyte events by the
// hundred, and one string of them all would be past what V8 can build.
import type { TapeBus } from "../tape/bus";
import { splitByBytes, tapeEventBytes } from "../tape/wire-bytes";
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
    for (const [podId, evs] of frames) {
      for (const frame of splitByBytes(evs, tapeEventBytes)) {
        try {
          flush(podId, frame);
        } catch (error) {
          // The events are committed; a spectator that missed the frame catches up when it resubscribes.
          console.error(`podwatch: a live frame of pod ${podId} could not be sent`, error);
        }
      }
    }
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

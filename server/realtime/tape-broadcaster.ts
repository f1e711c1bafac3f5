// Fans committed events out to spectators. Events committed in the same turn
// of the event loop are coalesced into one frame per pod, so a busy pod costs
// one emit per room per turn, however many spectators watch it. A frame is cut
// by weight (server/tape/wire-bytes.ts): a turn may gather megabyte events by the
// hundred, and one string of them all would be past what V8 can build.
//
// A pod watched by many is also paced: after one of its frames goes out, its next
// waits out a window (`windowMs`, which grows with the room) and carries everything
// committed meanwhile. Socket.IO encodes a room's frame once, but every socket still
// costs a packet and a write of its own, so a room of 2,000 sent a frame per commit
// would cost the node a write per socket per commit. The first frame after a quiet
// window goes out at once, so a pod that is not busy gains no latency.
import type { TapeBus } from "../tape/bus";
import { splitByBytes, tapeEventBytes } from "../tape/wire-bytes";
import type { TapeEvent } from "../wire/events";

export type Flush = (podId: string, events: TapeEvent[]) => void;
/** How long after a frame of `podId` its next must wait (0: only a turn's commits are gathered). */
export type FrameWindow = (podId: string) => number;

export type Coalescer = { stop: () => void };

/** A pod with something to send, or inside its window (`timer` ends the window). */
type Pending = { events: TapeEvent[]; timer: NodeJS.Timeout | null };

export function coalesceCommits(bus: TapeBus, flush: Flush, windowMs: FrameWindow = () => 0): Coalescer {
  const pods = new Map<string, Pending>();
  const dueNow = new Set<string>();
  let scheduled = false;

  const send = (podId: string, pod: Pending) => {
    const events = pod.events;
    pod.events = [];
    for (const frame of splitByBytes(events, tapeEventBytes)) {
      try {
        flush(podId, frame);
      } catch (error) {
        // The events are committed; a spectator that missed the frame catches up when it resubscribes.
        console.error(`podwatch: a live frame of pod ${podId} could not be sent`, error);
      }
    }
    const wait = windowMs(podId);
    if (wait < 1) return void pods.delete(podId);
    // The window's end sends what came meanwhile (and opens the next window), or forgets the pod.
    pod.timer = setTimeout(() => {
      pod.timer = null;
      if (pod.events.length) send(podId, pod);
      else pods.delete(podId);
    }, wait);
  };
  const sendDue = () => {
    scheduled = false;
    for (const podId of dueNow) {
      const pod = pods.get(podId);
      if (pod) send(podId, pod);
    }
    dueNow.clear();
  };
  const onCommitted = ({ podId, events }: { podId: string; events: TapeEvent[] }) => {
    const pod = pods.get(podId);
    if (pod) {
      for (const e of events) pod.events.push(e);
      return; // already due this turn, or waiting for its window to end
    }
    pods.set(podId, { events: [...events], timer: null });
    dueNow.add(podId);
    if (!scheduled) {
      scheduled = true;
      setImmediate(sendDue);
    }
  };
  bus.on("committed", onCommitted);
  return {
    stop: () => {
      bus.off("committed", onCommitted);
      // What is still gathered is committed: spectators get it when they resubscribe.
      for (const pod of pods.values()) if (pod.timer) clearTimeout(pod.timer);
      pods.clear();
      dueNow.clear();
    },
  };
}

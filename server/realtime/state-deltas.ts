// After a pod's live frames, what changed in its view: its spectators get a change notice
// ("pod:delta", server/pods/pod-state-delta.ts) instead of each reading GET /state again, and
// those counting it on any page hear only that its inbox changed ("pods:inbox"), not every event.
// Each node keeps, per watched pod, the state its last notice went up to; notices of a pod are
// made one at a time, in order, from the node's cached state (a read of the head when nothing
// changed), so a notice always starts where the previous one ended. A busy pod's notices are paced
// (notice-pacer.ts): one made at a window's end covers every commit of the window.
import type { AppContext } from "../app-context";
import type { PodState } from "../domain/state/pod-state";
import { onlookerCleaner } from "../pods/onlooker-view";
import { inboxCardsChanged, podStateDelta } from "../pods/pod-state-delta";
import { WIRE_VERSION } from "../wire/socket";
import type { PodStateDelta } from "../wire/views";
import type { PodIo } from "./pod-socket";
import { paceByPod } from "./notice-pacer";

/**
 * Past this a notice costs more than the view read again compressed (~77 KB for a 3,000-task pod):
 * the page reads it instead. A state this node did not build from the previous one (re-read from
 * the database) shares no object with it, so everything in it looks changed.
 */
export const MAX_DELTA_BYTES = 64 * 1024;

/** `onlookers`: the share links' sockets of a pod's room, which read its people by name (once per notice). */
type Rooms = {
  pod: (podId: string) => string;
  onlookers: (podId: string) => string;
  count: (podId: string) => string;
};

/** Admin-only inbox cards stay out of a notice every spectator gets: they re-read the view, which is filtered per person. */
function forEveryone(delta: PodStateDelta): PodStateDelta {
  const hidden = delta.lists.inbox?.put.some((card) => card.audience === "admins");
  if (!hidden && JSON.stringify(delta).length <= MAX_DELTA_BYTES) return delta;
  return { ...emptyNotice(delta.fromSeq, delta.seq), reread: true };
}

/** A notice that changes nothing: only where the pod is. */
const emptyNotice = (fromSeq: number, seq: number): PodStateDelta => ({
  fromSeq,
  seq,
  set: {},
  lists: {},
  tails: {},
});

/** `windowMs`: how long after a notice of the pod its next waits (server/realtime/frame-window.ts). */
export function followPodStates(
  app: AppContext,
  io: PodIo,
  rooms: Rooms,
  windowMs: (podId: string) => number = () => 0,
) {
  const last = new Map<string, PodState>();
  const queued = new Set<string>();
  const running = new Map<string, Promise<void>>();
  const roomSize = (room: string) => io.sockets.adapter.rooms.get(room)?.size ?? 0;

  const announced = new Set<string>();
  const emit = (podId: string, delta: PodStateDelta, state: PodState) => {
    io.to(rooms.pod(podId))
      .except(rooms.onlookers(podId))
      .emit("pod:delta", { v: WIRE_VERSION, podId, ...delta });
    if (roomSize(rooms.onlookers(podId)) === 0) return;
    const seen = onlookerCleaner(state)(delta);
    io.to(rooms.onlookers(podId)).emit("pod:delta", { v: WIRE_VERSION, podId, ...seen });
  };

  const step = async (podId: string) => {
    const watching = roomSize(rooms.pod(podId)) > 0;
    const counting = roomSize(rooms.count(podId)) > 0;
    // A watcher who just joined may have read the view before notices it never heard (that read
    // and the join race): after this step it hears where the pod is, an empty notice that is a gap
    // to a view behind it, so the page reads the view again (components/pod/use-pod-state.ts).
    const announce = announced.delete(podId) && watching;
    if (!watching && !counting) return void last.delete(podId);
    const next = await app.store.readState(podId);
    if (!next) return;
    const prev = last.get(podId);
    if (!prev || prev.seq < next.seq) last.set(podId, next);
    // The first state this node keeps of the pod is where its notices start.
    if (prev && prev.seq < next.seq) {
      if (counting && inboxCardsChanged(prev, next))
        io.to(rooms.count(podId)).emit("pods:inbox", { v: WIRE_VERSION, podId });
      if (watching) emit(podId, forEveryone(podStateDelta(prev, next)), next);
    }
    const seq = last.get(podId)!.seq;
    if (announce) emit(podId, emptyNotice(seq, seq), next);
  };

  /** Brings the pod's watchers up to its state, after any notice in the making. */
  const changeNow = (podId: string) => {
    if (queued.has(podId)) return; // the one queued reads the newest state anyway
    queued.add(podId);
    const prior = running.get(podId) ?? Promise.resolve();
    const run = prior
      .then(() => (queued.delete(podId), step(podId)))
      .catch((e) => console.error(`podwatch: a change notice of pod ${podId} could not be made`, e))
      .finally(() => running.get(podId) === run && running.delete(podId));
    running.set(podId, run);
  };
  const pacer = paceByPod(changeNow, windowMs);
  return {
    /** The pod committed (or gained a watcher): its watchers are brought up to its state, at once or at its window's end. */
    changed: pacer.request,
    /** A watcher joined the pod: bring it up to the pod's state, as on a commit, and tell it where that is. */
    joined(podId: string) {
      announced.add(podId);
      pacer.request(podId);
    },
    /** The server closed: no window's end makes a notice any more. */
    stop: pacer.stop,
  };
}

// Per-pod fan-out with a gap-free, duplicate-free hand-over from backlog to live.
//
// A subscriber is first "catching up": it reads the backlog from the database
// while live frames for it are parked. Then, in one synchronous step, it sends
// what was parked beyond its cursor and joins the pod's room. A frame may still
// carry events it already has (committed before it read, but published only
// after it joined: commit and publish are not one instant), so a freshly joined
// socket keeps a floor and is served filtered copies until frames pass it.
//
// What a socket has not taken is bounded: as frames go to a room, members past
// the queue bound are dropped (server/realtime/slow-consumers.ts), and a subscriber
// that parks more than MAX_PARKED events while its backlog is paced by its own
// acks is dropped too.
//
// A share link's onlooker is in the pod's room and in its onlookers' room too: the pod's frame goes
// to the room but that one, and the onlookers get the frame with people named, made once per frame
// (server/pods/onlooker-view.ts), never per socket.
import type { PodState } from "../domain/state/pod-state";
import { OnlookerNames } from "../pods/onlooker-view";
import type { TapeEvent } from "../wire/events";
import { splitByBytes, tapeEventBytes } from "../tape/wire-bytes";
import { WIRE_VERSION } from "../wire/socket";
import type { PodIo, PodSocket } from "./pod-socket";
import { dropOverfull, dropSlowConsumer } from "./slow-consumers";

type CatchingUp = { socket: PodSocket; parked: TapeEvent[]; aborted: boolean; onlooker: boolean };

/** Live events a catching-up subscriber may fall behind by (shared objects: it holds references, not copies). */
const MAX_PARKED = 10_000;

export const podRoom = (podId: string) => `pod:${podId}`;
export const onlookerRoom = (podId: string) => `onlookers:${podId}`;
const isOnlooker = (socket: PodSocket) => socket.data.identity?.kind === "share";

const frameBytes = (events: TapeEvent[]) => events.reduce((sum, e) => sum + tapeEventBytes(e), 0);

export class TapeHub {
  private catchingUp = new Map<string, Set<CatchingUp>>();
  private floors = new Map<string, Map<string, { socket: PodSocket; floor: number }>>();
  /** Per pod with onlookers (live or catching up): their sockets, and the names they read people by. */
  private onlookers = new Map<string, { sockets: Set<string>; names: OnlookerNames }>();

  constructor(private readonly io: PodIo) {}

  /** Called with each coalesced, committed frame of a pod, in seq order. */
  publish(podId: string, events: TapeEvent[]) {
    dropOverfull(this.io, podRoom(podId), frameBytes(events));
    const floors = this.floors.get(podId);
    const seen = this.onlookers.get(podId)?.names.follow(events) ?? null;
    const room = this.io.to(podRoom(podId)).except(onlookerRoom(podId));
    const onlookers = this.io.to(onlookerRoom(podId));
    if (!floors?.size) {
      room.emit("tape:events", { v: WIRE_VERSION, podId, events });
      if (seen) onlookers.emit("tape:events", { v: WIRE_VERSION, podId, events: seen });
    } else {
      room.except([...floors.keys()]).emit("tape:events", { v: WIRE_VERSION, podId, events });
      if (seen)
        onlookers.except([...floors.keys()]).emit("tape:events", { v: WIRE_VERSION, podId, events: seen });
      for (const [id, f] of floors) {
        // An onlooker with no names to read by gets nothing rather than the frame as written.
        const rest = (isOnlooker(f.socket) ? (seen ?? []) : events).filter((e) => e.seq > f.floor);
        if (rest.length) f.socket.emit("tape:events", { v: WIRE_VERSION, podId, events: rest });
        if (events.at(-1)!.seq > f.floor) floors.delete(id); // later frames are all beyond it
      }
    }
    for (const sub of this.catchingUp.get(podId) ?? []) {
      sub.parked.push(...(sub.onlooker ? (seen ?? []) : events));
      if (sub.parked.length > MAX_PARKED) {
        this.stopCatchUp(podId, sub);
        dropSlowConsumer(sub.socket);
      }
    }
  }

  /**
   * Starts parking live frames for a socket that is about to read the backlog. `state`: the pod's, as
   * its access was checked (an onlooker's names start from it). `clean` names people in what the
   * socket reads of the backlog: as it is for a member, as the pod's onlookers read it for one.
   */
  startCatchUp(podId: string, socket: PodSocket, state: Pick<PodState, "members">) {
    this.leave(podId, socket); // one subscription per socket and pod: a newer one replaces (aborts) the older
    const onlooker = isOnlooker(socket);
    const watching = onlooker ? this.addOnlooker(podId, socket, state) : null;
    const sub: CatchingUp = { socket, parked: [], aborted: false, onlooker };
    const subs = this.catchingUp.get(podId) ?? new Set();
    this.catchingUp.set(podId, subs.add(sub));
    return {
      /** Still wanted? False once unsubscribed, replaced or disconnected: stop reading the backlog. */
      active: () => !sub.aborted && socket.connected,
      /** Synchronous: sends parked events beyond `cursor`, joins the room; returns the new cursor (null if aborted meanwhile). */
      goLive: (cursor: number): number | null => {
        if (sub.aborted) return null;
        this.stopCatchUp(podId, sub);
        const rest = sub.parked.filter((e) => e.seq > cursor);
        // What was parked may be many live frames' worth: it goes out as frames of a bounded weight.
        for (const events of splitByBytes(rest, tapeEventBytes))
          socket.emit("tape:events", { v: WIRE_VERSION, podId, events });
        const seq = rest.at(-1)?.seq ?? cursor;
        if (socket.connected) {
          socket.join(podRoom(podId));
          if (onlooker) socket.join(onlookerRoom(podId));
          const floors = this.floors.get(podId) ?? new Map();
          this.floors.set(podId, floors.set(socket.id, { socket, floor: seq }));
        }
        return seq;
      },
      abort: () => {
        // Replaced by a newer subscription (or gone live): what it registered is no longer this one's.
        if (sub.aborted) return;
        this.stopCatchUp(podId, sub);
        if (onlooker) this.removeOnlooker(podId, socket);
      },
      clean: <T>(value: T): T => (watching ? watching.clean(value) : value),
    };
  }

  private addOnlooker(podId: string, socket: PodSocket, state: Pick<PodState, "members">) {
    const pod = this.onlookers.get(podId) ?? { sockets: new Set<string>(), names: new OnlookerNames(state) };
    this.onlookers.set(podId, pod);
    pod.sockets.add(socket.id);
    return pod.names;
  }

  private removeOnlooker(podId: string, socket: PodSocket) {
    const pod = this.onlookers.get(podId);
    if (pod?.sockets.delete(socket.id) && !pod.sockets.size) this.onlookers.delete(podId);
  }

  leave(podId: string, socket: PodSocket) {
    void socket.leave(podRoom(podId));
    void socket.leave(onlookerRoom(podId));
    this.removeOnlooker(podId, socket);
    this.floors.get(podId)?.delete(socket.id);
    for (const sub of this.catchingUp.get(podId) ?? [])
      if (sub.socket === socket) this.stopCatchUp(podId, sub);
  }

  /** Forgets a disconnected socket everywhere. */
  forget(socket: PodSocket) {
    for (const podId of [...this.onlookers.keys()]) this.removeOnlooker(podId, socket);
    for (const [podId, floors] of this.floors)
      if (floors.delete(socket.id) && !floors.size) this.floors.delete(podId);
    for (const [podId, subs] of this.catchingUp)
      for (const sub of subs) if (sub.socket === socket) this.stopCatchUp(podId, sub);
  }

  private stopCatchUp(podId: string, sub: CatchingUp) {
    sub.aborted = true;
    const subs = this.catchingUp.get(podId);
    subs?.delete(sub);
    if (subs && !subs.size) this.catchingUp.delete(podId);
  }
}

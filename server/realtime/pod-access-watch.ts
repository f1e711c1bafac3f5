// A person's access to a pod can be removed while they watch it. Their credential
// stays valid (the credential sweep keeps them), so the pod's own change is what
// ends their view: after an access event commits, the pod's watchers are checked
// again and those who may no longer see it leave its rooms, told why.
import type { AppContext } from "../app-context";
import { podAccess } from "../domain/access/policy";
import type { TapeEvent } from "../wire/events";
import { WIRE_VERSION } from "../wire/socket";
import type { PodIo } from "./pod-socket";
import { podRoom, type TapeHub } from "./tape-hub";

const ACCESS_EVENTS = new Set(["access.revoked", "access.granted"]);

export function changesAccess(events: TapeEvent[]): boolean {
  return events.some((e) => ACCESS_EVENTS.has(e.type));
}

export async function recheckWatchers(
  app: AppContext,
  io: PodIo,
  hub: TapeHub,
  podId: string,
  rooms: string[],
) {
  const state = await app.store.readState(podId);
  for (const room of [podRoom(podId), ...rooms]) {
    for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
      const socket = io.sockets.sockets.get(id);
      const identity = socket?.data.identity;
      if (!socket || !identity || (state && podAccess(identity, podId, state) !== "none")) continue;
      hub.leave(podId, socket);
      for (const r of rooms) void socket.leave(r);
      socket.emit("tape:error", { v: WIRE_VERSION, podId, message: "your access to this pod was removed" });
    }
  }
}

// Socket.IO on the server's own port: one room per pod for live frames, a
// "pods" room for the overview's live counts.
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import type { AppContext } from "../app-context";
import { visiblePods } from "../pods/visible-pods";
import { podAccess } from "../domain/access/policy";
import { coalesceCommits } from "./tape-broadcaster";
import { onlookerRoom, podRoom, TapeHub } from "./tape-hub";
import { frameWindowMs, noticeWindowMs } from "./frame-window";
import { changesAccess, recheckWatchers } from "./pod-access-watch";
import { sendBacklog } from "./backlog";
import { followPodStates } from "./state-deltas";
import { dropIfOverfull, dropOverfull } from "./slow-consumers";
import { WIRE_VERSION, ZTapeSubscribe } from "../wire/socket";
import { authenticateHandshake, endAccess, enforceCredentials, identify } from "./socket-credentials";
import type { PodIo, PodSocket } from "./pod-socket";

const PODS_ROOM = "pods";
const countRoom = (podId: string) => `count:${podId}`;
const COUNT_FRAME_BYTES = 120;

export function attachSocketServer(httpServer: HttpServer, app: AppContext) {
  // destroyUpgrade: false leaves other upgrade requests (Next's dev HMR) alone.
  const io: PodIo = new Server(httpServer, { destroyUpgrade: false, serveClient: false });
  const hub = new TapeHub(io);
  const roomSize = (room: string) => io.sockets.adapter.rooms.get(room)?.size ?? 0;
  // A pod's frames go to its tape's spectators and to those counting its events on the overview.
  const sockets = (podId: string) => roomSize(podRoom(podId)) + roomSize(countRoom(podId));
  const windowMs = (podId: string) => frameWindowMs(sockets(podId), app.config.socketFramesPerSecond);
  // Views follow a pod by its change notices (what changed), not by reading its state per event.
  const states = followPodStates(
    app,
    io,
    { pod: podRoom, onlookers: onlookerRoom, count: countRoom },
    (podId) => noticeWindowMs(sockets(podId), app.config.socketFramesPerSecond),
  );
  const coalescer = coalesceCommits(
    app.bus,
    (podId, events) => {
      hub.publish(podId, events);
      dropOverfull(io, countRoom(podId), COUNT_FRAME_BYTES);
      io.to(countRoom(podId)).emit("pods:count", { v: WIRE_VERSION, podId, eventCount: events.at(-1)!.seq });
      states.changed(podId);
      if (changesAccess(events))
        recheckWatchers(app, io, hub, podId, [countRoom(podId)]).catch((e) =>
          console.error("podwatch: re-checking a pod's watchers failed", e),
        );
    },
    windowMs,
  );
  const onPodCreated = () => io.to(PODS_ROOM).emit("pods:changed", { v: WIRE_VERSION });
  app.bus.on("pod-created", onPodCreated);

  io.use(authenticateHandshake(app));
  const stopEnforcing = enforceCredentials(app, io);
  /** The pod's state when the socket may watch it, else null. */
  const canWatch = async (socket: PodSocket, podId: string) => {
    const identity = await identify(app, socket);
    if (!identity) return (endAccess(socket), null);
    const state = await app.store.readState(podId);
    return state !== null && podAccess(identity, podId, state) !== "none" ? state : null;
  };
  io.engine.on("close", () => {
    stopEnforcing();
    coalescer.stop(); // a closed server stops listening to the bus
    states.stop();
    app.bus.off("pod-created", onPodCreated);
  });

  io.on("connection", (socket: PodSocket) => {
    socket.on("disconnect", () => hub.forget(socket));
    socket.on("pods:subscribe", async (ack) => {
      void socket.join(PODS_ROOM);
      const identity = await identify(app, socket);
      if (!identity) return void endAccess(socket);
      for (const { pod } of await visiblePods(app.store, identity)) {
        void socket.join(countRoom(pod.id));
        states.changed(pod.id); // inbox notices of the pod start from its state now
      }
      if (typeof ack === "function") ack();
    });
    socket.on("tape:unsubscribe", (req) => {
      if (typeof req?.podId === "string") hub.leave(req.podId, socket);
    });
    socket.on("tape:subscribe", async (raw) => {
      if (dropIfOverfull(socket)) return; // even its refusals would queue up
      const parsed = ZTapeSubscribe.safeParse(raw);
      if (!parsed.success) {
        return void socket.emit("tape:error", {
          v: WIRE_VERSION,
          podId: String(raw?.podId ?? ""),
          message: "tape:subscribe needs { podId, afterSeq }",
        });
      }
      const { podId, afterSeq } = parsed.data;
      const state = await canWatch(socket, podId);
      if (!state)
        return void socket.emit("tape:error", {
          v: WIRE_VERSION,
          podId,
          message: "pod not found or not visible to you",
        });
      const catchUp = hub.startCatchUp(podId, socket, state);
      try {
        const cursor = await sendBacklog(app.store, socket, {
          podId,
          afterSeq,
          active: catchUp.active,
          clean: catchUp.clean,
          ackTimeoutMs: app.config.socketAckTimeoutMs,
        });
        if (cursor === null) return catchUp.abort();
        // Frames still being gathered (this turn's, or a busy pod's window) need not go out first:
        // what they hold at or below the cursor is filtered out by the floor goLive sets.
        const seq = catchUp.goLive(cursor);
        if (seq !== null) socket.emit("tape:live", { v: WIRE_VERSION, podId, seq });
        if (seq !== null) states.joined(podId); // its next notice starts from the state now
      } catch (e) {
        catchUp.abort();
        socket.emit("tape:error", {
          v: WIRE_VERSION,
          podId,
          message: e instanceof Error ? e.message : "subscription failed",
        });
      }
    });
  });
  return io;
}

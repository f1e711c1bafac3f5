// Socket.IO on the server's own port: one room per pod for live frames, a
// "pods" room for the overview's live counts.
import type { Server as HttpServer } from "node:http";
import { Server } from "socket.io";
import { z } from "zod";
import type { AppContext } from "../app-context";
import { visiblePods } from "../pods/visible-pods";
import { podAccess, type Identity } from "../domain/access/policy";
import { resolveIdentity } from "../access/resolve-identity";
import { coalesceCommits } from "./tape-broadcaster";
import { TapeHub } from "./tape-hub";
import { sendBacklog } from "./backlog";
import { dropOverfull } from "./slow-consumers";
import type { PodIo, PodSocket } from "./pod-socket";

const CREDENTIAL_SWEEP_MS = 15_000;
const ZSubscribe = z.object({ podId: z.string().min(1).max(100), afterSeq: z.number().int().min(0) });
const PODS_ROOM = "pods";
const countRoom = (podId: string) => `count:${podId}`;

export function attachSocketServer(httpServer: HttpServer, app: AppContext) {
  // destroyUpgrade: false leaves other upgrade requests (Next's dev HMR) alone.
  const io: PodIo = new Server(httpServer, { destroyUpgrade: false, serveClient: false });
  const hub = new TapeHub(io);
  const coalescer = coalesceCommits(app.bus, (podId, events) => {
    hub.publish(podId, events);
    dropOverfull(io, countRoom(podId));
    io.to(countRoom(podId)).emit("pods:count", { podId, eventCount: events.at(-1)!.seq });
  });
  const onPodCreated = () => io.to(PODS_ROOM).emit("pods:changed");
  app.bus.on("pod-created", onPodCreated);

  // Who is watching: the same credentials as the API (session cookie, share cookie, or a token in the handshake).
  // Credentials are looked up again for every subscription and every sweep, so a
  // revoked token, an expired share link or a signed-out session stops its stream.
  const identify = async (socket: PodSocket): Promise<Identity | null> => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const headers = typeof token === "string" ? { ...socket.handshake.headers, authorization: `Bearer ${token}` } : socket.handshake.headers;
    const identity = await resolveIdentity(app.access, headers).catch(() => "invalid" as const);
    return identity === "invalid" || identity.kind === "anonymous" ? null : identity;
  };
  io.use(async (socket, next) => {
    const origin = socket.handshake.headers.origin;
    if (origin && !app.config.trustedOrigins.includes(origin)) return next(new Error("origin not allowed"));
    (await identify(socket)) ? next() : next(new Error("authentication required"));
  });
  const canWatch = async (socket: PodSocket, podId: string) => {
    const identity = await identify(socket);
    if (!identity) return void socket.disconnect(true), false;
    const state = await app.store.readState(podId);
    return state !== null && podAccess(identity, podId, state) !== "none";
  };
  const sweep = setInterval(async () => {
    for (const socket of io.of("/").sockets.values()) if (!(await identify(socket))) socket.disconnect(true);
  }, CREDENTIAL_SWEEP_MS);
  sweep.unref();
  io.engine.on("close", () => {
    clearInterval(sweep);
    coalescer.stop(); // a closed server stops listening to the bus
    app.bus.off("pod-created", onPodCreated);
  });

  io.on("connection", (socket: PodSocket) => {
    socket.on("disconnect", () => hub.forget(socket));
    socket.on("pods:subscribe", async (ack) => {
      void socket.join(PODS_ROOM);
      const identity = await identify(socket);
      if (!identity) return void socket.disconnect(true);
      for (const { pod } of await visiblePods(app.store, identity)) void socket.join(countRoom(pod.id));
      if (typeof ack === "function") ack();
    });
    socket.on("tape:unsubscribe", (req) => {
      if (typeof req?.podId === "string") hub.leave(req.podId, socket);
    });
    socket.on("tape:subscribe", async (raw) => {
      const parsed = ZSubscribe.safeParse(raw);
      if (!parsed.success) {
        return void socket.emit("tape:error", { podId: String(raw?.podId ?? ""), message: "tape:subscribe needs { podId, afterSeq }" });
      }
      const { podId, afterSeq } = parsed.data;
      if (!(await canWatch(socket, podId))) return void socket.emit("tape:error", { podId, message: "pod not found or not visible to you" });
      const catchUp = hub.startCatchUp(podId, socket);
      try {
        const cursor = await sendBacklog(app.store, socket, { podId, afterSeq, active: catchUp.active, ackTimeoutMs: app.config.socketAckTimeoutMs });
        if (cursor === null) return catchUp.abort();
        coalescer.flushNow(); // frames still being coalesced go out (and get parked) before the join
        const seq = catchUp.goLive(cursor);
        if (seq !== null) socket.emit("tape:live", { podId, seq });
      } catch (e) {
        catchUp.abort();
        socket.emit("tape:error", { podId, message: e instanceof Error ? e.message : "subscription failed" });
      }
    });
  });
  return io;
}

// Socket.IO on the server's own port: one room per pod for live frames, a
// "pods" room for the overview's live counts.
import type { Server as HttpServer } from "node:http";
import { Server, type Socket } from "socket.io";
import { z } from "zod";
import type { AppContext } from "../app-context";
import { getPod } from "../pods/read-pods";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";
import { toTapeEvent } from "../tape/to-tape-event";
import { coalesceCommits } from "./tape-broadcaster";
import { TapeHub } from "./tape-hub";

type PodSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

const BACKLOG_PAGE = 1000;
const ZSubscribe = z.object({ podId: z.string().min(1).max(100), afterSeq: z.number().int().min(0) });
const PODS_ROOM = "pods";

export function attachSocketServer(httpServer: HttpServer, app: AppContext) {
  // destroyUpgrade: false leaves other upgrade requests (Next's dev HMR) alone.
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, { destroyUpgrade: false, serveClient: false });
  const hub = new TapeHub(io);
  const coalescer = coalesceCommits(app.bus, (podId, events) => {
    hub.publish(podId, events);
    io.to(PODS_ROOM).emit("pods:count", { podId, eventCount: events.at(-1)!.seq });
  });
  app.bus.on("pod-created", () => io.to(PODS_ROOM).emit("pods:changed"));

  io.on("connection", (socket: PodSocket) => {
    socket.on("disconnect", () => hub.forget(socket));
    socket.on("pods:subscribe", (ack) => {
      void socket.join(PODS_ROOM);
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
      const catchUp = hub.startCatchUp(podId, socket);
      try {
        await getPod(app.store, podId);
        let cursor = afterSeq;
        for (;;) {
          const page = await app.store.readEvents(podId, cursor, BACKLOG_PAGE);
          if (page.length) socket.emit("tape:events", { podId, events: page.map((e) => toTapeEvent(e)) });
          cursor = page.at(-1)?.seq ?? cursor;
          if (page.length < BACKLOG_PAGE || socket.disconnected) break;
        }
        coalescer.flushNow(); // frames still being coalesced go out (and get parked) before the join
        const seq = catchUp.goLive(cursor);
        socket.emit("tape:live", { podId, seq });
      } catch (e) {
        catchUp.abort();
        socket.emit("tape:error", { podId, message: e instanceof Error ? e.message : "subscription failed" });
      }
    });
  });
  return io;
}

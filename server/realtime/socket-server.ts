// Socket.IO: one room per pod for live frames. A new subscriber first catches
// up from the database while live frames for it are parked; the switch to the
// room happens in one synchronous step, so it sees no gap and no duplicate.
import type { Server as HttpServer } from "node:http";
import { Server, type Socket } from "socket.io";
import { z } from "zod";
import type { AppContext } from "../app-context";
import { getPod } from "../pods/read-pods";
import type { TapeEvent } from "../wire/events";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";
import { toTapeEvent } from "../tape/to-tape-event";
import { coalesceCommits } from "./tape-broadcaster";

type PodSocket = Socket<ClientToServerEvents, ServerToClientEvents>;
type CatchingUp = { socket: PodSocket; parked: TapeEvent[] };

const BACKLOG_PAGE = 1000;
const ZSubscribe = z.object({ podId: z.string().min(1).max(100), afterSeq: z.number().int().min(0) });
const podRoom = (podId: string) => `pod:${podId}`;
const PODS_ROOM = "pods";

export function attachSocketServer(httpServer: HttpServer, app: AppContext) {
  // destroyUpgrade: false leaves other upgrade requests (Next's dev HMR) alone.
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(httpServer, { destroyUpgrade: false, serveClient: false });
  const catchingUp = new Map<string, Set<CatchingUp>>();

  coalesceCommits(app.bus, (podId, events) => {
    io.to(podRoom(podId)).emit("tape:events", { podId, events });
    for (const sub of catchingUp.get(podId) ?? []) sub.parked.push(...events);
    io.to(PODS_ROOM).emit("pods:count", { podId, eventCount: events.at(-1)!.seq });
  });
  app.bus.on("pod-created", () => io.to(PODS_ROOM).emit("pods:changed"));

  io.on("connection", (socket: PodSocket) => {
    socket.on("pods:subscribe", () => void socket.join(PODS_ROOM));
    socket.on("tape:unsubscribe", (req) => {
      if (typeof req?.podId === "string") void socket.leave(podRoom(req.podId));
    });
    socket.on("tape:subscribe", async (raw) => {
      const parsed = ZSubscribe.safeParse(raw);
      if (!parsed.success) return void socket.emit("tape:error", { podId: String(raw?.podId ?? ""), message: "tape:subscribe needs { podId, afterSeq }" });
      const { podId, afterSeq } = parsed.data;
      await socket.leave(podRoom(podId));
      const sub: CatchingUp = { socket, parked: [] };
      const subs = catchingUp.get(podId) ?? new Set();
      catchingUp.set(podId, subs.add(sub));
      const stop = () => {
        subs.delete(sub);
        if (!subs.size) catchingUp.delete(podId);
      };
      socket.once("disconnect", stop);
      try {
        await getPod(app.store, podId);
        let cursor = afterSeq;
        for (;;) {
          const page = await app.store.readEvents(podId, cursor, BACKLOG_PAGE);
          if (page.length) socket.emit("tape:events", { podId, events: page.map(toTapeEvent) });
          cursor = page.at(-1)?.seq ?? cursor;
          if (page.length < BACKLOG_PAGE || socket.disconnected) break;
        }
        // Synchronous from here on: nothing can be committed between draining and joining.
        const rest = sub.parked.filter((e) => e.seq > cursor);
        if (rest.length) socket.emit("tape:events", { podId, events: rest });
        cursor = rest.at(-1)?.seq ?? cursor;
        stop();
        if (socket.connected) {
          socket.join(podRoom(podId));
          socket.emit("tape:live", { podId, seq: cursor });
        }
      } catch (e) {
        stop();
        socket.emit("tape:error", { podId, message: e instanceof Error ? e.message : "subscription failed" });
      }
    });
  });
  return io;
}

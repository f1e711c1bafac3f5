// A spectator of one pod's live tape over Socket.IO, as the browser is one
// (components/tape/use-live-tape.ts): on every (re)connect it subscribes from the last seq it
// holds. Unlike the browser it keeps whatever arrives, duplicates included, so a test can
// assert the server sent each seq exactly once; and it notes when each event arrived.
import { io as connect, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;

export type TapeWatcher = {
  /** Every seq received, in arrival order. */
  seqs: number[];
  /** When each event (by id) arrived, in performance.now() time. */
  arrivals: Map<string, number>;
  /** Connections made (1 + reconnects) and why each one ended. */
  connects: () => number;
  disconnects: string[];
  isLive: () => boolean;
  /** Resolves once `seq` has arrived (rejects after `ms`). */
  until: (seq: number, ms?: number) => Promise<void>;
  close: () => void;
};

export function watchTape(url: string, token: string, podId: string, afterSeq: number): TapeWatcher {
  const socket: Client = connect(url, {
    transports: ["websocket"],
    forceNew: true,
    auth: { token },
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
  });
  const seqs: number[] = [];
  const arrivals = new Map<string, number>();
  const disconnects: string[] = [];
  let last = afterSeq;
  let live = false;
  let connects = 0;
  socket.on("connect", () => {
    connects++;
    live = false;
    socket.emit("tape:subscribe", { podId, afterSeq: last });
  });
  socket.on("disconnect", (reason) => void disconnects.push(reason));
  socket.on("tape:events", (frame, ack) => {
    ack?.();
    if (frame.podId !== podId) return;
    const now = performance.now();
    for (const e of frame.events) {
      seqs.push(e.seq);
      if (!arrivals.has(e.id)) arrivals.set(e.id, now);
      last = Math.max(last, e.seq);
    }
  });
  socket.on("tape:live", (info) => info.podId === podId && (live = true));
  const until = (seq: number, ms = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (last >= seq) return (clearInterval(poll), resolve());
        if (Date.now() - started > ms)
          return (
            clearInterval(poll),
            reject(
              new Error(
                `waited for seq ${seq}: saw ${seqs.length} events, last ${last}, live=${live}, connects=${connects}, disconnects=${disconnects.join(",")}`,
              ),
            )
          );
      }, 5);
    });
  return {
    seqs,
    arrivals,
    connects: () => connects,
    disconnects,
    isLive: () => live,
    until,
    close: () => void socket.close(),
  };
}

/** The seqs `after`+1 … `head`, each once: what a gap-free, duplicate-free tape delivers. */
export const seqRange = (after: number, head: number) =>
  Array.from({ length: head - after }, (_, i) => after + i + 1);

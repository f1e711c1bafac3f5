// Back-pressure for spectators: what a socket has not yet taken is bounded,
// and a socket that falls behind is disconnected, never buffered for. It loses
// nothing: it reconnects and resumes from its last seq.
import type { PodIo, PodSocket } from "./pod-socket";

/** Bytes a socket may leave untaken before it is dropped: far above a healthy reader's momentary backlog. */
export const MAX_QUEUED_BYTES = 4 * 1024 * 1024;

type EngineInternals = {
  writeBuffer?: { data?: unknown }[];
  transport?: { socket?: { bufferedAmount?: number; terminate?: () => void } };
};
const engine = (socket: PodSocket) => socket.conn as unknown as EngineInternals;

/** Bytes queued for the peer in this process: packets Engine.IO still holds, and what the WebSocket has not yet handed to the kernel. */
export function queuedBytes(socket: PodSocket): number {
  const conn = engine(socket);
  let bytes = conn.transport?.socket?.bufferedAmount ?? 0;
  for (const { data } of conn.writeBuffer ?? []) bytes += typeof data === "string" || Buffer.isBuffer(data) ? data.length : 0;
  return bytes;
}

/**
 * Drops a consumer too slow to keep up. The transport is closed (not a Socket.IO disconnect,
 * after which clients stay away), so the client reconnects and resumes from its last seq.
 */
export function dropSlowConsumer(socket: PodSocket) {
  const ws = engine(socket).transport?.socket;
  // Destroyed outright: a closing handshake would keep the buffers for a peer that does not read.
  if (typeof ws?.terminate === "function") ws.terminate();
  else socket.conn.close(true); // long-polling: the queued packets are discarded
  socket.disconnect(); // out of its rooms now, before the next frame goes out
}

/** Drops `socket` if it holds more than the bound untaken; true if it did. Called before anything is sent to one socket. */
export function dropIfOverfull(socket: PodSocket): boolean {
  if (queuedBytes(socket) <= MAX_QUEUED_BYTES) return false;
  dropSlowConsumer(socket);
  return true;
}

/** Called before each frame to a room: a socket then holds at most the bound plus one frame. */
export function dropOverfull(io: PodIo, room: string) {
  for (const id of io.sockets.adapter.rooms.get(room) ?? []) {
    const socket = io.sockets.sockets.get(id);
    if (socket) dropIfOverfull(socket);
  }
}

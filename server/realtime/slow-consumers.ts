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
  for (const { data } of conn.writeBuffer ?? [])
    bytes += typeof data === "string" || Buffer.isBuffer(data) ? data.length : 0;
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

/**
 * A room's traffic between two scans. A socket under the bound at one scan holds at most the
 * bound plus this (and one frame) before the next: scanning every member before every frame was
 * O(room) per frame, the most of a big room's fan-out after the writes themselves.
 */
export const SCAN_EVERY_BYTES = 1024 * 1024;
/** Keyed by the adapter's member set of a room, which goes when the room empties. */
const sentSinceScan = new WeakMap<Set<string>, number>();

/** Called before each frame to a room, with about what it weighs: drops the members past the bound once per SCAN_EVERY_BYTES of the room's frames. */
export function dropOverfull(io: PodIo, room: string, frameBytes: number) {
  const members = io.sockets.adapter.rooms.get(room);
  if (!members) return;
  const sent = (sentSinceScan.get(members) ?? 0) + frameBytes;
  if (sent < SCAN_EVERY_BYTES) return void sentSinceScan.set(members, sent);
  sentSinceScan.set(members, 0);
  for (const id of members) {
    const socket = io.sockets.sockets.get(id);
    if (socket) dropIfOverfull(socket);
  }
}

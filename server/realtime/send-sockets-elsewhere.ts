// Draining a node's sockets. New handshakes are refused (403): socket.io-client counts that as
// a failed connection and retries with backoff, which behind a proxy reaches a ready node.
// Live sockets get their transport closed rather than `disconnect(true)`: a client told
// "io server disconnect" never reconnects by itself, one that loses its transport does, and
// then resubscribes from the last seq it holds (components/tape/use-live-tape.ts).
import type { PodIo } from "./pod-socket";

export function sendSocketsElsewhere(io: PodIo) {
  io.engine.opts.allowRequest = (_req, refuse) => refuse("this node is draining; connect again", false);
  for (const socket of io.of("/").sockets.values()) socket.conn.close();
}

// The server's typed Socket.IO handles, shared by the realtime modules.
import type { Server, Socket } from "socket.io";
import type { Identity } from "../domain/access/policy";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

/** Per socket: who it authenticated as during the handshake (fixed for its life). */
export type PodSocketData = { identity?: Identity };
export type PodSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  PodSocketData
>;
export type PodIo = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, PodSocketData>;

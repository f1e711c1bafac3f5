"use client";
// One Socket.IO connection per browser tab, typed with the shared event maps.
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/server/wire/socket";

export type PodwatchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let socket: PodwatchSocket | null = null;

export function getSocket(): PodwatchSocket {
  socket ??= io({ transports: ["websocket", "polling"], reconnectionDelayMax: 4000 });
  return socket;
}

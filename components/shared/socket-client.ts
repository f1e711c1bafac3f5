"use client";
// One Socket.IO connection per browser tab, typed with the shared event maps.
import { io, type Socket } from "socket.io-client";
import type {
  ClientToServerEvents,
  PodCountFrame,
  PodInboxFrame,
  ServerToClientEvents,
} from "@/server/wire/socket";

export type PodwatchSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
let socket: PodwatchSocket | null = null;

export function getSocket(): PodwatchSocket {
  socket ??= io({ transports: ["websocket", "polling"], reconnectionDelayMax: 4000 });
  return socket;
}

type PodsWatcher = {
  count?: (frame: PodCountFrame) => void;
  inbox?: (frame: PodInboxFrame) => void;
  joined?: () => void;
};
const podsWatchers = new Set<PodsWatcher>();
let joinPods: (() => void) | null = null;
const onPodCount = (frame: PodCountFrame) => podsWatchers.forEach((w) => w.count?.(frame));
const onPodInbox = (frame: PodInboxFrame) => podsWatchers.forEach((w) => w.inbox?.(frame));

/**
 * The cross-pod feed (event counts of every visible pod, and which one's inbox changed), joined once per tab however many
 * components watch it: again after a reconnect and when a pod is added. `joined` fires after
 * each join (refetch then, so nothing between a load and the join is missed).
 */
export function watchPods(watcher: PodsWatcher): () => void {
  const s = getSocket();
  podsWatchers.add(watcher);
  if (!joinPods) {
    const join = () => s.emit("pods:subscribe", () => podsWatchers.forEach((w) => w.joined?.()));
    joinPods = join;
    s.on("connect", join);
    s.on("pods:changed", join);
    s.on("pods:count", onPodCount);
    s.on("pods:inbox", onPodInbox);
    if (s.connected) join();
  }
  return () => {
    podsWatchers.delete(watcher);
    if (podsWatchers.size || !joinPods) return;
    s.off("connect", joinPods);
    s.off("pods:changed", joinPods);
    s.off("pods:count", onPodCount);
    s.off("pods:inbox", onPodInbox);
    joinPods = null;
  };
}

// Socket.IO event maps, typed once for both ends.
import type { TapeEvent } from "./events";

export type TapeFrame = { podId: string; events: TapeEvent[] };
export type PodCountFrame = { podId: string; eventCount: number };

export interface ServerToClientEvents {
  "tape:events": (frame: TapeFrame) => void;
  /** Sent once the backlog after the requested seq has been delivered. */
  "tape:live": (info: { podId: string; seq: number }) => void;
  "tape:error": (info: { podId: string; message: string }) => void;
  "pods:count": (frame: PodCountFrame) => void;
  "pods:changed": () => void;
}

export interface ClientToServerEvents {
  "tape:subscribe": (req: { podId: string; afterSeq: number }) => void;
  "tape:unsubscribe": (req: { podId: string }) => void;
  /** The ack fires once joined: the client refetches then, so nothing between its load and the join is missed. */
  "pods:subscribe": (ack?: () => void) => void;
}

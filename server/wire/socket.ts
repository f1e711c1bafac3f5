// Socket.IO event maps, typed once for both ends.
import type { TapeEvent } from "./events";

export type TapeFrame = { podId: string; events: TapeEvent[] };
export type PodCountFrame = { podId: string; eventCount: number };

export interface ServerToClientEvents {
  /**
   * Events in seq order. A backlog page comes with `ack`: call it once the frame is taken; the next
   * page is sent only then, and a socket that leaves a page unacknowledged too long is disconnected
   * (it reconnects and resumes from its last seq). Live frames carry no `ack`.
   */
  "tape:events": (frame: TapeFrame, ack?: () => void) => void;
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

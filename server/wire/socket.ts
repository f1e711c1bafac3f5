// Socket.IO event maps, typed once for both ends, and the schema of what a client sends.
import { z } from "zod";
import type { TapeEvent } from "./events";
import type { PodStateDelta } from "./views";

/**
 * The version of every server→client frame, carried as `v`. A change to a frame that an older
 * client would misread bumps it; adding an optional field does not.
 */
export const WIRE_VERSION = 1;
type Versioned = { v: typeof WIRE_VERSION };

export type TapeFrame = Versioned & { podId: string; events: TapeEvent[] };
export type TapeLiveFrame = Versioned & { podId: string; seq: number };
export type TapeErrorFrame = Versioned & { podId: string; message: string };
export type PodCountFrame = Versioned & { podId: string; eventCount: number };
export type PodsChangedFrame = Versioned;
export type PodDeltaFrame = Versioned & { podId: string } & PodStateDelta;
export type PodInboxFrame = Versioned & { podId: string };
/** Why the server is ending this socket (a revoked or expired credential), in words for the reader. */
export type AccessEndedFrame = Versioned & { reason: string };

export interface ServerToClientEvents {
  /**
   * Events in seq order. A backlog page comes with `ack`: call it once the frame is taken; the next
   * page is sent only then, and a socket that leaves a page unacknowledged too long is disconnected
   * (it reconnects and resumes from its last seq). Live frames carry no `ack`.
   */
  "tape:events": (frame: TapeFrame, ack?: () => void) => void;
  /** Sent once the backlog after the requested seq has been delivered. */
  "tape:live": (info: TapeLiveFrame) => void;
  "tape:error": (info: TapeErrorFrame) => void;
  "pods:count": (frame: PodCountFrame) => void;
  "pods:changed": (frame: PodsChangedFrame) => void;
  /** To a pod's spectators, after its live frames: what changed in its GET /state view (seqs may cover several frames). */
  "pod:delta": (frame: PodDeltaFrame) => void;
  /** To those counting a pod (the "pods" feed): its inbox changed, so read that pod's part of the inbox again. */
  "pods:inbox": (frame: PodInboxFrame) => void;
  /** Sent just before the server ends the socket because its credential no longer holds; it does not reconnect. */
  "access:ended": (frame: AccessEndedFrame) => void;
}

/** tape:subscribe: the pod to follow and the last seq the client holds (0 for the whole tape). */
export const ZTapeSubscribe = z.object({
  podId: z.string().min(1).max(100),
  afterSeq: z.number().int().min(0),
});
export type TapeSubscribe = z.infer<typeof ZTapeSubscribe>;

export interface ClientToServerEvents {
  "tape:subscribe": (req: TapeSubscribe) => void;
  "tape:unsubscribe": (req: { podId: string }) => void;
  /** The ack fires once joined: the client refetches then, so nothing between its load and the join is missed. */
  "pods:subscribe": (ack?: () => void) => void;
}

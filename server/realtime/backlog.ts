// The backlog of a subscription, paced by the client: a page goes out only once
// the previous one was acknowledged, so a spectator that does not read costs the
// server one page, and one that does not acknowledge in time is dropped.
import type { TapeStore } from "../db/tape-store";
import type { StoredEvent } from "../domain/plan-append";
import { toTapeEvent } from "../tape/to-tape-event";
import { countFitting, storedEventBytes } from "../tape/wire-bytes";
import { type TapeFrame, WIRE_VERSION } from "../wire/socket";
import type { PodSocket } from "./pod-socket";
import { dropIfOverfull, dropSlowConsumer } from "./slow-consumers";

const PAGE_EVENTS = 1000;
/** The first read is small (a browser resumes ~100 events back); reads double while pages fit. */
const FIRST_READ = 100;

/** A page weighs about WIRE_FRAME_BYTES on the wire at most (one event, if it alone weighs more). */
function fitPage(rows: StoredEvent[]): StoredEvent[] {
  return rows.slice(0, countFitting(rows, storedEventBytes));
}

/** True once the client acknowledged the page; false on timeout or disconnection. */
function sendPage(socket: PodSocket, frame: TapeFrame, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (acked: boolean) => {
      clearTimeout(timer);
      socket.off("disconnect", gone);
      resolve(acked);
    };
    const gone = () => done(false);
    const timer = setTimeout(gone, timeoutMs);
    socket.once("disconnect", gone);
    socket.emit("tape:events", frame, () => done(true));
  });
}

export type Subscription = {
  podId: string;
  afterSeq: number;
  active: () => boolean;
  ackTimeoutMs: number;
  /** What the subscriber reads of a page (a share link's onlooker: people named, never by email). */
  clean?: <T>(value: T) => T;
};

/** Sends the events after `afterSeq`; returns the last seq sent, or null once the subscription has ended (unsubscribed, replaced, disconnected, or dropped as too slow). */
export async function sendBacklog(
  store: TapeStore,
  socket: PodSocket,
  sub: Subscription,
): Promise<number | null> {
  let cursor = sub.afterSeq;
  let limit = FIRST_READ;
  for (;;) {
    const rows = await store.readEvents(sub.podId, cursor, limit);
    if (!sub.active()) return null;
    const page = fitPage(rows);
    if (page.length) {
      // A page is sent only to a socket that takes what it is sent: re-subscribing in a loop
      // without reading would otherwise queue a page per subscribe.
      if (dropIfOverfull(socket)) return null;
      const events = page.map((e) => toTapeEvent(e));
      const acked = await sendPage(
        socket,
        { v: WIRE_VERSION, podId: sub.podId, events: sub.clean ? sub.clean(events) : events },
        sub.ackTimeoutMs,
      );
      if (!sub.active()) return null;
      if (!acked) return (dropSlowConsumer(socket), null);
      cursor = page.at(-1)!.seq;
    }
    if (page.length === rows.length && rows.length < limit) return cursor; // the head, as it was when read
    // Big events: read only as many as fit, rather than rows only to leave them out.
    limit = page.length < rows.length ? page.length : Math.min(PAGE_EVENTS, limit * 2);
  }
}

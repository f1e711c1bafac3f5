// How long a busy pod's live frames are gathered (server/realtime/tape-broadcaster.ts): long
// enough that its fan-out sends at most `socketFramesPerSecond` frames a second over all of its
// sockets. A frame to a room costs a packet and a write per socket (Socket.IO encodes it once,
// Engine.IO and the kernel do the rest socket by socket), so that is what is bounded: a pod with
// 20 spectators is never held back, one with 500 at most ~10 ms, one with 2,000 ~40 ms (at the
// default of 50,000). A spectator's view is never older than the cap.
export const MAX_FRAME_WINDOW_MS = 250;

/** The window for a pod whose frames go to `sockets` sockets; below a millisecond it is none. */
export function frameWindowMs(sockets: number, socketFramesPerSecond: number): number {
  const ms = Math.min(MAX_FRAME_WINDOW_MS, (sockets * 1000) / socketFramesPerSecond);
  return ms < 1 ? 0 : ms;
}

/**
 * A pod's change notices (server/realtime/state-deltas.ts) share the budget at a longer window:
 * after every frame a notice went to every socket too, doubling the writes, when the tape is what
 * a spectator reads live and the view may trail it by a few frames. At four frames' windows, a room
 * of 500 gets a notice at most every 40 ms, one of 2,000 every 160 ms; the cap holds for both.
 */
export const NOTICE_WINDOW_FRAMES = 4;

/** The window of a pod's change notices that go to `sockets` sockets; below a millisecond it is none. */
export function noticeWindowMs(sockets: number, socketFramesPerSecond: number): number {
  return Math.min(MAX_FRAME_WINDOW_MS, NOTICE_WINDOW_FRAMES * frameWindowMs(sockets, socketFramesPerSecond));
}

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

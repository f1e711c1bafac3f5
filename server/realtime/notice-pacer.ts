// Paces a pod's change notices (server/realtime/state-deltas.ts) as its live frames are paced
// (tape-broadcaster.ts): each costs a packet and a write per socket of the room. The first request
// after a quiet window runs at once; requests inside a window are folded into one run at its end,
// which reads the newest state, so nothing is lost, only gathered.

export type Pacer = { request: (podId: string) => void; stop: () => void };

/** `run(podId)` at most once per `windowMs(podId)` (0: every request runs at once). */
export function paceByPod(run: (podId: string) => void, windowMs: (podId: string) => number): Pacer {
  const windows = new Map<string, { again: boolean; timer: NodeJS.Timeout }>();
  const start = (podId: string) => {
    run(podId);
    const wait = windowMs(podId);
    if (wait < 1) return;
    const w = {
      again: false,
      timer: setTimeout(() => {
        windows.delete(podId);
        if (w.again) start(podId); // and opens the next window
      }, wait),
    };
    windows.set(podId, w);
  };
  return {
    request: (podId) => {
      const w = windows.get(podId);
      if (w) w.again = true;
      else start(podId);
    },
    stop: () => {
      for (const w of windows.values()) clearTimeout(w.timer);
      windows.clear();
    },
  };
}

// POST → subscribed socket latency with one spectator and no other load: one event at a time,
// from just before its POST to the frame carrying it. (The target figure, with 500 spectators at
// 1,000 events/s, is bench/spectators.ts's.)
import { io } from "socket.io-client";
import { createPod, note, pct, post } from "./http";

const SAMPLES = 1000;

export async function socketLatencyRows(base: string): Promise<[string, string][]> {
  const lat = await createPod(base, "bench-latency");
  const socket = io(base, { transports: ["websocket"], auth: { token: lat.token } });
  try {
    const waiting = new Map<string, (at: number) => void>();
    socket.on("tape:events", (f, ack) => {
      const at = performance.now();
      ack?.(); // backlog pages wait for it
      for (const e of f.events) waiting.get(e.id)?.(at);
    });
    await new Promise<void>((resolve) => {
      socket.on("tape:live", () => resolve());
      socket.emit("tape:subscribe", { podId: lat.podId, afterSeq: 0 });
    });
    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const ev = note(i);
      const seen = new Promise<number>((resolve) => waiting.set(ev.id, resolve));
      const start = performance.now();
      const r = await post(`${base}/api/v1/pods/${lat.podId}/events`, JSON.stringify(ev), lat.token);
      if (r.status !== 201) throw new Error(`socket latency POST → ${r.status} ${r.text}`);
      latencies.push((await seen) - start);
      waiting.delete(ev.id);
    }
    latencies.sort((a, b) => a - b);
    return [
      [
        "POST → socket latency p50 (one spectator, one event at a time)",
        `${pct(latencies, 50).toFixed(2)} ms`,
      ],
      [
        "POST → socket latency p99 (one spectator, one event at a time)",
        `${pct(latencies, 99).toFixed(2)} ms`,
      ],
    ];
  } finally {
    socket.close();
  }
}

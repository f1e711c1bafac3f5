// The cluster figures' load: time-bounded ingest from keep-alive clients spread over the nodes,
// and cross-node POST → socket latency (post on one node, a live socket on another).
import { io } from "socket.io-client";
import { note, pct, post } from "./http";

export type BenchPod = { podId: string; token: string };

/**
 * Events a second that `clients` keep-alive clients get acknowledged (201) for `ms`, after a
 * short warm-up. Client c posts to node c % nodes and pod c % pods; each request carries `batch`
 * events (1: single-event POSTs). Any other answer than 201 stops the bench: a figure over failures means nothing.
 */
export async function ingestRate(
  nodes: string[],
  pods: BenchPod[],
  o: { clients: number; batch: number; ms: number; warmupMs: number },
): Promise<number> {
  const body = (i: number) =>
    JSON.stringify(
      o.batch === 1 ? note(i) : { events: Array.from({ length: o.batch }, (_, k) => note(i * o.batch + k)) },
    );
  const run = async (ms: number) => {
    let acknowledged = 0;
    const end = performance.now() + ms;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: o.clients }, async (_, c) => {
        const base = nodes[c % nodes.length]!;
        const pod = pods[c % pods.length]!;
        for (let i = 0; performance.now() < end; i++) {
          const r = await post(`${base}/api/v1/pods/${pod.podId}/events`, body(i), pod.token);
          if (r.status !== 201) throw new Error(`cluster ingest → ${r.status} ${r.text.slice(0, 200)}`);
          acknowledged += o.batch;
        }
      }),
    );
    return acknowledged / ((performance.now() - start) / 1000);
  };
  await run(o.warmupMs);
  return run(o.ms);
}

/** POST on `writer`, a socket subscribed on `reader`: one event at a time, `samples` times (bounded by `ms`); sorted latencies in ms. */
export async function crossNodeLatency(
  writer: string,
  reader: string,
  pod: BenchPod,
  o: { samples: number; ms: number },
): Promise<number[]> {
  const socket = io(reader, { transports: ["websocket"], forceNew: true, auth: { token: pod.token } });
  const waiting = new Map<string, (at: number) => void>();
  socket.on("tape:events", (frame, ack) => {
    const at = performance.now();
    ack?.();
    for (const e of frame.events) waiting.get(e.id)?.(at);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("cross-node latency: the socket never went live")),
        10_000,
      );
      socket.on("tape:live", () => (clearTimeout(timer), resolve()));
      socket.emit("tape:subscribe", { podId: pod.podId, afterSeq: 0 });
    });
    const latencies: number[] = [];
    const end = performance.now() + o.ms;
    for (let i = 0; i < o.samples && performance.now() < end; i++) {
      const ev = note(i);
      let timer: NodeJS.Timeout | undefined;
      const seen = new Promise<number>((resolve, reject) => {
        waiting.set(ev.id, resolve);
        timer = setTimeout(
          () => reject(new Error(`cross-node latency: event ${i} never reached the other node's socket`)),
          5_000,
        );
      });
      const start = performance.now();
      const r = await post(`${writer}/api/v1/pods/${pod.podId}/events`, JSON.stringify(ev), pod.token);
      if (r.status !== 201) throw new Error(`cross-node latency: append → ${r.status}`);
      latencies.push((await seen) - start);
      clearTimeout(timer);
      waiting.delete(ev.id);
    }
    return latencies.sort((a, b) => a - b);
  } finally {
    socket.close();
  }
}

export const ms = (sorted: number[], p: number) => `${pct(sorted, p).toFixed(2)} ms`;

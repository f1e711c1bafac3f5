// Webhook figures: delivery throughput (signed deliveries a second to a loopback
// receiver, from tape commits through the outbox) and fan-out latency (an event's
// commit answered → the receiver has it). Bounded loops, 127.0.0.1 only; the server
// runs with PODWATCH_WEBHOOK_ALLOW_PRIVATE=1 so loopback may receive.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { note, pct, post } from "./http";

const THROUGHPUT_EVENTS = 3000; // in requests of 100
const LATENCY_SAMPLES = 200;

export async function benchWebhooks(
  base: string,
  pod: { podId: string; token: string },
): Promise<[string, string][]> {
  const arrived = new Map<string, number>();
  let waiter: (() => void) | null = null;
  const receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const id = (JSON.parse(body) as { data: { event?: { id: string } } }).data.event?.id;
      if (id) arrived.set(id, performance.now());
      res.writeHead(204).end();
      waiter?.();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const until = (done: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const limit = setTimeout(
        () => reject(new Error(`webhook bench: only ${arrived.size} deliveries arrived`)),
        120_000,
      );
      waiter = () => done() && (clearTimeout(limit), (waiter = null), resolve());
      waiter();
    });
  try {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;
    const created = await post(
      `${base}/api/v1/pods/${pod.podId}/webhooks`,
      JSON.stringify({ url, events: ["note"] }),
    );
    if (created.status !== 201) throw new Error(`webhook bench: ${created.status} ${created.text}`);

    const t = performance.now();
    for (let r = 0; r < THROUGHPUT_EVENTS / 100; r++) {
      const res = await post(
        `${base}/api/v1/pods/${pod.podId}/events`,
        JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => note(r * 100 + i)) }),
        pod.token,
      );
      if (res.status !== 201) throw new Error(`webhook bench: append → ${res.status}`);
    }
    await until(() => arrived.size >= THROUGHPUT_EVENTS);
    const rate = THROUGHPUT_EVENTS / ((performance.now() - t) / 1000);

    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const ev = { ...note(i), id: randomUUID() };
      await post(`${base}/api/v1/pods/${pod.podId}/events`, JSON.stringify(ev), pod.token);
      const committed = performance.now();
      await until(() => arrived.has(ev.id));
      latencies.push(arrived.get(ev.id)! - committed);
    }
    latencies.sort((a, b) => a - b);
    return [
      [
        `webhook delivery throughput (${THROUGHPUT_EVENTS.toLocaleString("en")} signed deliveries to loopback)`,
        `${Math.round(rate).toLocaleString("en")} deliveries/s`,
      ],
      ["webhook fan-out latency (commit → receiver) p50", `${pct(latencies, 50).toFixed(1)} ms`],
      ["webhook fan-out latency (commit → receiver) p95", `${pct(latencies, 95).toFixed(1)} ms`],
    ];
  } finally {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  }
}

// An agent posting single-event requests open-loop: each event is due at its own time
// (start + i/rate) and is sent then on an idle keep-alive connection (a new one if all are
// busy, up to MAX_CONNECTIONS), however many earlier ones are still unanswered, so a slow server
// shows as latency, not as a client that slowed down with it. Raw TCP, like
// ./keep-alive-clients.ts: node's http client costs several times the CPU per request, taken
// from the cores the server and the spectators share.
import { connect, type Socket } from "node:net";
import { note } from "../http";

export type PacedResult = {
  sent: number;
  errors: number;
  samples: string[];
  /** Events per second actually issued, and how late the latest-issued event left (the client's own lag). */
  rate: number;
  maxLagMs: number;
  /** How long each POST took to be answered (ms, sorted): the part of the socket latency that is the append's. */
  answered: number[];
  /** CPU this process spent per request (µs), the probe's share included. */
  cpuMicrosPerRequest: number;
};

const MAX_CONNECTIONS = 128;
const HEAD_END = Buffer.from("\r\n\r\n");

type Connection = {
  socket: Socket;
  busy: boolean;
  buf: Buffer;
  done: ((status: number, body: string) => void) | null;
};

function open(
  port: number,
  onFree: (c: Connection) => void,
  onError: (c: Connection, e: string) => void,
): Connection {
  const c: Connection = {
    socket: connect({ host: "127.0.0.1", port, noDelay: true }),
    busy: false,
    buf: Buffer.alloc(0),
    done: null,
  };
  c.socket.on("data", (chunk: Buffer) => {
    c.buf = c.buf.length ? Buffer.concat([c.buf, chunk]) : chunk;
    const end = c.buf.indexOf(HEAD_END);
    if (end < 0) return;
    const head = c.buf.toString("latin1", 0, end);
    const length = Number(/\r\ncontent-length:[ \t]*(\d+)/i.exec(head)?.[1] ?? 0);
    if (c.buf.length < end + 4 + length) return;
    const body = c.buf.toString("utf8", end + 4, end + 4 + length);
    c.buf = c.buf.subarray(end + 4 + length);
    const done = c.done;
    c.done = null;
    c.busy = false;
    done?.(Number(head.slice(9, 12)), body);
    onFree(c);
  });
  c.socket.on("error", (e) => onError(c, e.message));
  c.socket.on("close", () => c.busy && onError(c, "connection closed"));
  return c;
}

export async function postPaced(
  base: string,
  pod: { podId: string; token: string },
  o: { rate: number; seconds: number; onSend?: (eventId: string, at: number) => void },
): Promise<PacedResult> {
  const total = Math.round(o.rate * o.seconds);
  const result: PacedResult = {
    sent: 0,
    errors: 0,
    samples: [],
    rate: 0,
    maxLagMs: 0,
    answered: [],
    cpuMicrosPerRequest: 0,
  };
  const fail = (what: string) => (result.errors++, result.samples.length < 3 && result.samples.push(what));
  const { port } = new URL(base);
  const path = `/api/v1/pods/${pod.podId}/events`;
  const idle: Connection[] = [];
  const all: Connection[] = [];
  let finished = 0;
  let allDone: () => void = () => {};
  const settle = () => ++finished === total && allDone();
  const onError = (c: Connection, e: string) => {
    if (!c.done) return;
    c.done = null;
    fail(`POST: ${e}`);
    settle();
  };
  const send = (i: number) => {
    const c =
      idle.pop() ??
      (all.length < MAX_CONNECTIONS
        ? (all.push(open(Number(port), (free) => idle.push(free), onError)), all.at(-1)!)
        : null);
    if (!c) return false; // every connection busy: sent on the next free one (its lag shows)
    const ev = note(i);
    const body = JSON.stringify(ev);
    const at = performance.now();
    result.maxLagMs = Math.max(result.maxLagMs, at - (start + (i * 1000) / o.rate));
    o.onSend?.(ev.id, at);
    c.busy = true;
    c.done = (status, text) => {
      result.answered.push(performance.now() - at);
      if (status !== 201) fail(`POST → ${status} ${text.slice(0, 120)}`);
      settle();
    };
    c.socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${pod.token}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    return true;
  };
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const finishedAll = new Promise<void>((resolve) => (allDone = resolve));
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor((o.rate * (performance.now() - start)) / 1000) + 1);
      while (result.sent < due && send(result.sent)) result.sent++;
      if (result.sent < total) return;
      clearInterval(timer);
      resolve();
    }, 1);
  });
  result.rate = result.sent / ((performance.now() - start) / 1000);
  await Promise.race([finishedAll, new Promise((r) => setTimeout(r, 60_000))]);
  if (finished < total) fail(`${total - finished} POSTs unanswered after 60 s`);
  const cpu = process.cpuUsage(cpu0);
  result.cpuMicrosPerRequest = (cpu.user + cpu.system) / total;
  for (const c of all) c.socket.destroy();
  result.answered.sort((a, b) => a - b);
  return result;
}

// The bench's HTTP load generator: N keep-alive TCP connections to 127.0.0.1, each sending one
// pre-built request (head + body bytes) at a time, no pipelining, and reading just enough of each
// answer to know it is whole (content-length; podwatch's JSON answers always carry one) and its
// status. Why not node's http client: on a 2-core machine it spends more CPU per request than the
// server under test — ~7,250 req/s against a bare server, below the 7,000 events/s target plus
// headroom — so it could not tell a slow server from a slow generator. Bounded: a fixed number of
// requests and a deadline after which every connection is cut and the run reported as failed.
import { connect, type Socket } from "node:net";
import { processCpuSeconds } from "./process-usage";

export type LoadPlan = {
  port: number;
  /** One list of pre-built requests per connection, sent in order (one connection = one client). */
  perClient: Buffer[][];
  expectStatus: number;
  /** Past this the run is cut and counted as failed (default 120 s). */
  maxSeconds?: number;
  /** The server's process, when its CPU per request should be read (/proc, Linux). */
  serverPid?: number;
};

export type LoadResult = {
  /** Requests answered (whatever their status). */
  answered: number;
  /** Answers with another status, and connections lost or cut. */
  errors: number;
  /** The first unexpected answer (its head and body), or the first socket error. */
  firstError: string | null;
  seconds: number;
  /** Answers with the expected status, per second of the whole run. */
  perSecond: number;
  /** One per answered request, in ms, sorted. */
  latencies: Float64Array;
  /** CPU this process spent per answered request (µs): the generator's own cost, whatever the server's. */
  cpuMicrosPerRequest: number;
  /** The same for the server's process (null when not asked or not readable). */
  serverCpuMicrosPerRequest: number | null;
};

const HEAD_END = Buffer.from("\r\n\r\n");
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

/** The quantile `p` (0–100) of sorted values. */
export const quantile = (sorted: Float64Array | number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export async function runKeepAliveClients(plan: LoadPlan): Promise<LoadResult> {
  const total = plan.perClient.reduce((n, list) => n + list.length, 0);
  const latencies = new Float64Array(total);
  let answered = 0;
  let good = 0;
  let errors = 0;
  let firstError: string | null = null;
  const fail = (what: string) => {
    errors++;
    firstError ??= what;
  };

  const opened = await Promise.allSettled(plan.perClient.map(() => open(plan.port)));
  const sockets = opened.flatMap((o) => (o.status === "fulfilled" ? [o.value] : []));
  const refused = opened.find((o) => o.status === "rejected");
  if (refused) {
    for (const s of sockets) s.destroy();
    throw new Error(
      `the load generator could not connect to 127.0.0.1:${plan.port}: ${(refused as PromiseRejectedResult).reason}`,
    );
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const serverCpu0 = plan.serverPid === undefined ? null : processCpuSeconds(plan.serverPid);
  const runs = sockets.map(
    (socket, c) =>
      new Promise<void>((resolve) => {
        const requests = plan.perClient[c]!;
        let next = 0;
        let sentAt = 0;
        /** A request is out and its answer not yet whole. */
        let awaiting = false;
        let pending: Buffer | null = null;
        /** Bytes the current answer takes in `pending` (head + body), once its head is read; else -1. */
        let answerBytes = -1;
        let status = 0;
        const finish = () => {
          socket.removeAllListeners();
          socket.destroy();
          resolve();
        };
        const send = () => {
          if (next === requests.length) return finish();
          sentAt = performance.now();
          awaiting = true;
          socket.write(requests[next++]!);
        };
        socket.on("data", (chunk: Buffer) => {
          pending = pending ? Buffer.concat([pending, chunk]) : chunk;
          if (answerBytes < 0) {
            const headEnd = pending.indexOf(HEAD_END);
            if (headEnd < 0) return;
            const head = pending.toString("latin1", 0, headEnd);
            const length = CONTENT_LENGTH.exec(head)?.[1];
            if (length === undefined) {
              fail(
                `an answer without content-length (chunked?), which this generator does not read:\n${head}`,
              );
              return finish();
            }
            status = Number(head.slice(9, 12));
            answerBytes = headEnd + HEAD_END.length + Number(length);
          }
          if (pending.length < answerBytes) return;
          latencies[answered++] = performance.now() - sentAt;
          awaiting = false;
          if (status === plan.expectStatus) good++;
          else
            fail(
              `HTTP ${status}, expected ${plan.expectStatus}:\n${pending.toString("utf8", 0, Math.min(answerBytes, 4000))}`,
            );
          if (pending.length > answerBytes) {
            fail("bytes after the answer (the generator never pipelines)");
            return finish();
          }
          pending = null;
          answerBytes = -1;
          send();
        });
        socket.on("error", (e) => (fail(`socket error: ${e.message}`), finish()));
        socket.on("close", () => {
          if (awaiting || next < requests.length) fail("the server closed a connection with requests left");
          finish();
        });
        send();
      }),
  );

  const maxMs = (plan.maxSeconds ?? 120) * 1000;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>(
    (resolve) =>
      (timer = setTimeout(() => {
        fail(`cut after ${maxMs / 1000} s with ${total - answered} requests unanswered`);
        for (const s of sockets) s.destroy();
        resolve();
      }, maxMs)),
  );
  await Promise.race([Promise.all(runs), deadline]);
  clearTimeout(timer);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  for (const s of sockets) s.destroy();
  const serverCpu1 = plan.serverPid === undefined ? null : processCpuSeconds(plan.serverPid);
  const cpuMicrosPerRequest = (cpu.user + cpu.system) / Math.max(1, answered);
  const serverCpuMicrosPerRequest =
    serverCpu0 === null || serverCpu1 === null
      ? null
      : ((serverCpu1 - serverCpu0) * 1e6) / Math.max(1, answered);
  return {
    answered,
    errors,
    firstError,
    seconds,
    perSecond: good / seconds,
    latencies: latencies.subarray(0, answered).sort(),
    cpuMicrosPerRequest,
    serverCpuMicrosPerRequest,
  };
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, noDelay: true });
    socket.once("connect", () => (socket.off("error", reject), resolve(socket)));
    socket.once("error", reject);
  });
}

/** One HTTP/1.1 request as bytes: head (Host, keep-alive is HTTP/1.1's default) and a JSON body. */
export function rawPost(port: number, path: string, token: string, body: string): Buffer {
  const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
  return Buffer.from(head + body, "utf8");
}

/** `requests` dealt round-robin to `clients` connections, each keeping its order (pairs stay on one client when `group` is 2). */
export function dealRequests(requests: Buffer[], clients: number, group = 1): Buffer[][] {
  const out: Buffer[][] = Array.from({ length: clients }, () => []);
  for (let i = 0; i < requests.length; i++) out[Math.floor(i / group) % clients]!.push(requests[i]!);
  return out;
}

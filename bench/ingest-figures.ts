// The ingest targets, driven by the lean generator (bench/load/keep-alive-clients.ts):
// single-event POSTs from 32 keep-alive clients with one pod's agent token, and batches of 1000
// events from 4 clients. The per-token budget (PODWATCH_RATE_LIMIT_PER_MINUTE, 120,000/min by
// default) is left as an operator has it: every run posts with a fresh token and stays under it.
import type { Figure } from "./figures";
import { createPod, note } from "./http";
import { dealRequests, rawPost, runKeepAliveClients, type LoadResult } from "./load/keep-alive-clients";
import { loadFigureNote } from "./load/load-figure-note";

export type BenchServer = { url: string; pid: number };

const SINGLE_REQUESTS = 40_000;
const SINGLE_CLIENTS = 32;
const WARM_UP_REQUESTS = 2_000;
const BATCH_REQUESTS = 120;
const BATCH_EVENTS = 1000;
const BATCH_CLIENTS = 4;

const portOf = (server: BenchServer) => Number(new URL(server.url).port);

/** Posts `bodies` to a fresh pod, one request each, dealt to `clients` connections. */
async function postAll(
  server: BenchServer,
  name: string,
  bodies: string[],
  clients: number,
): Promise<{ r: LoadResult; podId: string }> {
  const pod = await createPod(server.url, name);
  const port = portOf(server);
  const requests = bodies.map((body) => rawPost(port, `/api/v1/pods/${pod.podId}/events`, pod.token, body));
  const r = await runKeepAliveClients({
    port,
    perClient: dealRequests(requests, clients),
    expectStatus: 201,
    serverPid: server.pid,
  });
  return { r, podId: pod.podId };
}

const rate = (r: LoadResult, eventsPerRequest: number) =>
  r.errors ? null : Math.round(r.perSecond * eventsPerRequest);

/** A short run first, on a pod of its own: the server's JIT and caches warm, not counted. */
export async function warmUp(server: BenchServer): Promise<void> {
  const { r } = await postAll(
    server,
    "bench-warm-up",
    Array.from({ length: WARM_UP_REQUESTS }, (_, i) => JSON.stringify(note(i))),
    SINGLE_CLIENTS,
  );
  if (r.errors) throw new Error(`warm-up failed: ${r.firstError}`);
}

/** Single-event POSTs' rate, and the server's CPU per request (its own target: a figure the machine's other load moves less). */
export async function singleEventFigures(server: BenchServer): Promise<Figure[]> {
  const bodies = Array.from({ length: SINGLE_REQUESTS }, (_, i) => JSON.stringify(note(i)));
  const { r } = await postAll(server, "bench-single", bodies, SINGLE_CLIENTS);
  const cpu = r.serverCpuMicrosPerRequest;
  return [
    {
      key: "ingest.single",
      label: `single-event POSTs, ${SINGLE_CLIENTS} keep-alive clients, one agent token (${Buffer.byteLength(bodies[0]!)}-byte note)`,
      value: rate(r, 1),
      unit: "events/s",
      target: { atLeast: 12_000 },
      note: loadFigureNote(r),
    },
    {
      key: "ingest.single.cpu",
      label: "server CPU per single-event request",
      value: r.errors || cpu === null ? null : Math.round(cpu),
      unit: "µs",
      target: { atMost: 80 },
    },
  ];
}

/** Returns the pod too: the first-render figure opens it (120,000 events). */
export async function batchedIngestFigure(server: BenchServer): Promise<{ figure: Figure; podId: string }> {
  const bodies = Array.from({ length: BATCH_REQUESTS }, (_, b) =>
    JSON.stringify({ events: Array.from({ length: BATCH_EVENTS }, (_, i) => note(b * BATCH_EVENTS + i)) }),
  );
  const { r, podId } = await postAll(server, "bench-batch", bodies, BATCH_CLIENTS);
  return {
    podId,
    figure: {
      key: "ingest.batched",
      label: `batched ingest, ${BATCH_EVENTS} events/request, ${BATCH_CLIENTS} keep-alive clients (${BATCH_REQUESTS} requests)`,
      value: rate(r, BATCH_EVENTS),
      unit: "events/s",
      target: { atLeast: 40_000 },
      note: loadFigureNote(r, BATCH_EVENTS),
    },
  };
}

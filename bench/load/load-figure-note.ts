// What every load figure prints beside its rate: how many requests, how long, latency p50/p99,
// the CPU each side spent (steadier than rates when other work shares the machine) and — loudly —
// the errors and the first unexpected answer.
import { quantile, type LoadResult } from "./keep-alive-clients";

export function loadFigureNote(r: LoadResult, eventsPerRequest = 1): string {
  const perEvent = eventsPerRequest === 1 ? "request" : "event";
  const server =
    r.serverCpuMicrosPerRequest === null
      ? ""
      : `, server CPU ${(r.serverCpuMicrosPerRequest / eventsPerRequest).toFixed(eventsPerRequest === 1 ? 0 : 1)} µs/${perEvent}`;
  const seen = `${r.answered.toLocaleString("en")} requests in ${r.seconds.toFixed(1)} s, latency p50 ${quantile(r.latencies, 50).toFixed(1)} / p99 ${quantile(r.latencies, 99).toFixed(1)} ms${server}, generator CPU ${Math.round(r.cpuMicrosPerRequest)} µs/request`;
  return r.errors ? `FAILED: ${r.errors} errors; ${seen}; first: ${r.firstError}` : seen;
}

// The hook target: Claude Code tool calls over HTTP at full speed. 32 keep-alive clients,
// closed loop, each a session of its own sending a tool call's PreToolUse (gated by the pod's tool
// policy, which allows it) and then its PostToolUse (an observation); every hook request puts one
// tool.call event on the tape. Two figures: hook events per second and the p99 of one request.
// 40,000 requests with one fresh agent token: under its default 120,000/min budget.
import { randomUUID } from "node:crypto";
import { HOOK, postUse, pre, setBenchPolicy } from "./agent-hooks";
import type { Figure } from "./figures";
import { createPod } from "./http";
import type { BenchServer } from "./ingest-figures";
import { dealRequests, quantile, rawPost, runKeepAliveClients } from "./load/keep-alive-clients";
import { loadFigureNote } from "./load/load-figure-note";

const CLIENTS = 32;
const CALLS = 20_000; // × 2 hook requests

export async function hookThroughputFigures(server: BenchServer): Promise<Figure[]> {
  const pod = await createPod(server.url, "bench-hook-throughput");
  await setBenchPolicy(server.url, pod.podId);
  const port = Number(new URL(server.url).port);
  const sessions = Array.from({ length: CLIENTS }, () => randomUUID());
  const requests: Buffer[] = [];
  for (let i = 0; i < CALLS; i++) {
    // Call i goes to client i % CLIENTS (dealt in pairs below): that client's session.
    const session = sessions[i % CLIENTS]!;
    const id = `toolu_bench_${i}`;
    requests.push(
      rawPost(port, HOOK, pod.token, JSON.stringify(pre(session, id, i))),
      rawPost(port, HOOK, pod.token, JSON.stringify(postUse(session, id, i))),
    );
  }
  const r = await runKeepAliveClients({
    port,
    perClient: dealRequests(requests, CLIENTS, 2),
    expectStatus: 200,
    serverPid: server.pid,
  });
  const failed = r.errors > 0;
  const label = `Claude Code hook events over HTTP (PreToolUse + PostToolUse pairs), ${CLIENTS} clients closed-loop`;
  return [
    {
      key: "hooks.http.rate",
      label,
      value: failed ? null : Math.round(r.perSecond),
      unit: "events/s",
      target: { atLeast: 6000 },
      note: loadFigureNote(r),
    },
    {
      key: "hooks.http.p99",
      label: `  one hook request's latency under that load, p99`,
      value: failed ? null : Math.round(quantile(r.latencies, 99) * 10) / 10,
      unit: "ms",
      target: { atMost: 20 },
    },
  ];
}

// One spectator scenario: a crowd watches one pod live while an agent posts to it open-loop;
// then every spectator's tape is checked, and what the server and the crowd spent is read.
// With `probe`, one of the spectators is in this process and times every event from just
// before its POST to the arrival of its frame (it joins last: the room's last socket served).
import type { Crowd, OpenResult } from "./crowd-process";
import type { CrowdReport } from "./crowd";
import { postPaced, type PacedResult } from "./paced-poster";
import { openSpectator, type Spectator } from "./spectator";
import { processCpuSeconds, processRssMiB } from "./process-usage";
import { get } from "../http";
import { spectatedPod } from "./spectated-pod";

export type WatchRun = {
  opened: OpenResult;
  posted: PacedResult;
  /** The pod's head once every POST was answered: what every spectator must reach. */
  head: number;
  crowd: CrowdReport;
  /** The probe's: ms from POST to arrival, one per event it got (sorted); and whether its tape was whole. */
  latencies: number[];
  /** Spectators (the probe among them) with every event, once, in order, and no error or disconnection. */
  complete: number;
  /** Server CPU over the posting window, in cores (1 = one core busy). */
  serverCores: number | null;
  rssPeakMiB: number;
  /** With every spectator still connected, once the last event reached them. */
  rssEndMiB: number | null;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Samples the server's RSS every 250 ms until stopped; returns the highest seen. */
function watchRss(pid: number) {
  let peak = processRssMiB(pid) ?? 0;
  const timer = setInterval(() => (peak = Math.max(peak, processRssMiB(pid) ?? 0)), 250);
  return { stop: () => (clearInterval(timer), peak) };
}

export async function watchWhilePosting(
  base: string,
  crowd: Crowd,
  serverPid: number,
  o: { name: string; spectators: number; rate: number; seconds: number; probe: boolean },
): Promise<WatchRun> {
  const pod = await spectatedPod(base, o.name);
  const opened = await crowd.open({
    base,
    token: pod.share,
    podId: pod.podId,
    afterSeq: pod.head,
    count: o.spectators - (o.probe ? 1 : 0),
  });
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let probe: Spectator | null = null;
  if (o.probe) {
    probe = await openSpectator(base, {
      token: pod.share,
      podId: pod.podId,
      afterSeq: pod.head,
      full: true,
      onEvents: (events, at) => {
        for (const e of events) {
          const t0 = sentAt.get(e.id);
          if (t0 === undefined) continue;
          latencies.push(at - t0);
          sentAt.delete(e.id);
        }
      },
    });
    for (const deadline = Date.now() + 10_000; !probe.state.live && Date.now() < deadline;) await sleep(10);
  }
  try {
    await sleep(500); // the joins' own work settles before the clock starts
    await crowd.measure();
    const rss = watchRss(serverPid);
    const cpu0 = processCpuSeconds(serverPid);
    const t0 = performance.now();
    const posted = await postPaced(base, pod, {
      rate: o.rate,
      seconds: o.seconds,
      onSend: (id, at) => sentAt.set(id, at),
    });
    const cpu1 = processCpuSeconds(serverPid);
    const wall = (performance.now() - t0) / 1000;
    const head = (JSON.parse((await get(`${base}/api/v1/pods/${pod.podId}`)).text) as { eventCount: number })
      .eventCount;
    await crowd.waitFor(head, 30_000);
    for (
      const deadline = Date.now() + 30_000;
      probe && probe.state.last < head && !probe.state.closed && Date.now() < deadline;
    )
      await sleep(10);
    const rssEndMiB = processRssMiB(serverPid);
    const rssPeakMiB = rss.stop();
    const report = await crowd.report(head);
    const p = probe?.state;
    const probeComplete =
      !!p &&
      p.received === head - pod.head &&
      p.last === head &&
      !p.gaps &&
      !p.duplicates &&
      !p.errors.length &&
      !p.closed;
    latencies.sort((a, b) => a - b);
    const serverCores = cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / wall;
    return {
      opened,
      posted,
      head,
      crowd: report,
      latencies,
      complete: report.complete + (probe && probeComplete ? 1 : 0),
      serverCores,
      rssPeakMiB,
      rssEndMiB,
    };
  } finally {
    probe?.close();
    await crowd.closeAll();
    await sleep(1000); // the server sees the crowd go before the next scenario
  }
}

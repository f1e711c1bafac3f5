// A spectator coming back after missing `missed` events: the time from its tape:subscribe
// { afterSeq: head - missed } to tape:live, with every page parsed and acknowledged as the browser
// does (the next page is sent only after the ack), and the tape checked whole.
import { openSpectator } from "./spectator";
import { spectatedPod } from "./spectated-pod";

export type CatchUp = { times: number[]; failures: string[] };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function timeCatchUp(base: string, o: { missed: number; runs: number }): Promise<CatchUp> {
  const pod = await spectatedPod(base, "spectators-catch-up", o.missed + 1000);
  const result: CatchUp = { times: [], failures: [] };
  for (let run = 0; run < o.runs; run++) {
    let liveAt = 0;
    const spectator = await openSpectator(base, {
      token: pod.share,
      podId: pod.podId,
      afterSeq: pod.head - o.missed,
      full: true,
      onLive: (_seq, at) => (liveAt = at),
    });
    try {
      for (const deadline = Date.now() + 60_000; !liveAt && !spectator.state.closed && Date.now() < deadline;)
        await sleep(2);
      const s = spectator.state;
      if (
        !liveAt ||
        s.received !== o.missed ||
        s.last !== pod.head ||
        s.gaps ||
        s.duplicates ||
        s.errors.length
      ) {
        result.failures.push(
          `run ${run + 1}: live=${!!liveAt} received ${s.received}/${o.missed}, last ${s.last}/${pod.head}, gaps ${s.gaps}, errors ${s.errors.join("; ") || "none"}, closed ${s.closed ?? "no"}`,
        );
      } else result.times.push(liveAt - s.subscribedAt);
    } finally {
      spectator.close();
    }
  }
  return result;
}

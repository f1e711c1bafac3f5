// A pod for spectators: an agent to post with, a share link to watch with (what a browser
// spectator holds), and optionally a tape already `events` long.
import { createPod, get, note, post } from "../http";

export type SpectatedPod = { podId: string; token: string; share: string; head: number };

export async function spectatedPod(base: string, name: string, events = 0): Promise<SpectatedPod> {
  const pod = await createPod(base, name);
  const share = (
    JSON.parse((await post(`${base}/api/v1/pods/${pod.podId}/share-links`, "{}")).text) as { token: string }
  ).token;
  for (let i = 0; i < events; i += 1000) {
    const batch = Array.from({ length: Math.min(1000, events - i) }, (_, j) => note(i + j));
    const r = await post(
      `${base}/api/v1/pods/${pod.podId}/events`,
      JSON.stringify({ events: batch }),
      pod.token,
    );
    if (r.status !== 201) throw new Error(`seeding ${name}: ${r.status} ${r.text.slice(0, 200)}`);
  }
  const head = (JSON.parse((await get(`${base}/api/v1/pods/${pod.podId}`)).text) as { eventCount: number })
    .eventCount;
  return { ...pod, share, head };
}

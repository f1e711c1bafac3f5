// The demo simulator plays a pod through the public HTTP API, exactly as an
// outside agent would: it has no access to the store.
import { randomUUID } from "node:crypto";
import { demoSteps } from "./demo-script";

export const DEMO_POD_NAME = "demo";

async function api<T>(baseUrl: string, path: string, init?: { method: string; body: unknown }): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init?.method ?? "GET",
    headers: init ? { "content-type": "application/json" } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
  });
  if (!res.ok) throw new Error(`${init?.method ?? "GET"} ${path} → ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function ensureDemoPod(baseUrl: string): Promise<string> {
  const { pods } = await api<{ pods: { id: string; name: string }[] }>(baseUrl, "/api/v1/pods");
  const found = pods.find((p) => p.name === DEMO_POD_NAME);
  if (found) return found.id;
  const pod = await api<{ id: string }>(baseUrl, "/api/v1/pods", {
    method: "POST",
    body: { name: DEMO_POD_NAME, mode: "collaboration", scope: "A simulated pod: an implementer, a reviewer and an orchestrator working a small plan." },
  });
  return pod.id;
}

export async function startDemo(baseUrl: string, intervalMs: number) {
  const podId = await ensureDemoPod(baseUrl);
  const steps = demoSteps();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async () => {
    const step = steps.next().value!;
    try {
      await api(baseUrl, `/api/v1/pods/${podId}/events`, { method: "POST", body: { ...step, id: randomUUID(), ts: new Date().toISOString() } });
    } catch (e) {
      console.error(`podwatch demo: ${(e as Error).message}`);
    }
    // Jitter so the tape does not tick like a metronome.
    if (!stopped) timer = setTimeout(tick, intervalMs * (0.5 + Math.random()));
  };
  timer = setTimeout(tick, 300);
  return {
    podId,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

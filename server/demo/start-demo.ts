// The demo simulator plays a pod through the public HTTP API, exactly as an
// outside agent would: it has no access to the store.
import { randomUUID } from "node:crypto";
import { episodeSteps, setupSteps, type DemoStep } from "./demo-script";

export const DEMO_POD_NAME = "demo";

class ApiFailure extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

async function api<T>(baseUrl: string, path: string, init?: { method: string; body: unknown; actor?: string }): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: init?.method ?? "GET",
    headers: init ? { "content-type": "application/json", ...(init.actor ? { "x-podwatch-actor": init.actor } : {}) } : undefined,
    body: init ? JSON.stringify(init.body) : undefined,
  });
  const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!res.ok) throw new ApiFailure(res.status, json.error?.code ?? "unknown", `${init?.method ?? "GET"} ${path} → ${res.status} ${json.error?.message ?? ""}`);
  return json as T;
}

export async function ensureDemoPod(baseUrl: string): Promise<string> {
  const { pods } = await api<{ pods: { id: string; name: string }[] }>(baseUrl, "/api/v1/pods");
  const found = pods.find((p) => p.name === DEMO_POD_NAME);
  if (found) return found.id;
  const pod = await api<{ id: string }>(baseUrl, "/api/v1/pods", {
    method: "POST",
    body: { name: DEMO_POD_NAME, mode: "collaboration", scope: "A simulated pod: orchestrator, implementer, reviewer, chair and plan gates working a plan, live." },
  });
  return pod.id;
}

function post(baseUrl: string, podId: string, step: DemoStep) {
  const pod = `/api/v1/pods/${podId}`;
  switch (step.via) {
    case "plan":
      return api(baseUrl, `${pod}/plan`, { method: "POST", body: step.body.plan, actor: step.actor });
    case "workcell":
      return api(baseUrl, `${pod}/workcells`, { method: "POST", body: step.body.manifest, actor: step.actor });
    case "proof": {
      const proof = step.body.proof as { workcell_id: string };
      return api(baseUrl, `${pod}/workcells/${proof.workcell_id}/proof`, { method: "POST", body: proof, actor: step.actor });
    }
    default: {
      const { via: _via, optional: _optional, ...event } = step;
      return api(baseUrl, `${pod}/events`, { method: "POST", body: { ...event, id: randomUUID(), ts: new Date().toISOString() } });
    }
  }
}

type DemoState = { members: unknown[]; board: { taskId: string }[]; inbox: unknown[]; status: string };

export async function startDemo(baseUrl: string, intervalMs: number) {
  const podId = await ensureDemoPod(baseUrl);
  const state = () => api<DemoState>(baseUrl, `/api/v1/pods/${podId}/state`);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) => new Promise<void>((r) => (timer = setTimeout(r, ms)));

  async function play(steps: Iterable<DemoStep>) {
    for (const step of steps) {
      for (;;) {
        if (stopped) return;
        // Jitter so the tape does not tick like a metronome.
        await sleep(intervalMs * (0.5 + Math.random()));
        try {
          await post(baseUrl, podId, step);
          break;
        } catch (e) {
          if (e instanceof ApiFailure && e.code === "pod_paused") continue; // a human paused the pod: wait, then go on
          if (e instanceof ApiFailure && e.code === "pod_closed") return void (stopped = true);
          if (step.optional && e instanceof ApiFailure && e.status === 409) break;
          console.error(`podwatch demo: ${(e as Error).message}`);
          break;
        }
      }
    }
  }

  void (async () => {
    try {
      const s = await state();
      if (s.members.length === 0) await play(setupSteps());
      let k = 1 + Math.max(0, ...s.board.map((t) => Number(/^e(\d+)-/.exec(t.taskId)?.[1] ?? 0)));
      while (!stopped) {
        await play(episodeSteps(k++, (await state()).inbox.length));
      }
    } catch (e) {
      if (!stopped) console.error(`podwatch demo stopped: ${(e as Error).message}`);
    }
  })();

  return {
    podId,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

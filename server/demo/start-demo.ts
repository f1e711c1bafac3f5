// The demo simulator plays a pod through the public HTTP API, exactly as
// outside agents would: the server's admin key sets the pod up (members,
// tokens), then every agent speaks with its own token.
import { randomUUID } from "node:crypto";
import { demoMemberRequests, episodeSteps, setupSteps, type DemoStep } from "./demo-script";

export const DEMO_POD_NAME = "demo";
const TOKEN_LABEL = "demo simulator";

class ApiFailure extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

type Call = { method?: string; body?: unknown; token: string };

function client(baseUrl: string) {
  return async function api<T>(path: string, { method = "GET", body, token }: Call): Promise<T> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
    if (!res.ok) throw new ApiFailure(res.status, json.error?.code ?? "unknown", `${method} ${path} → ${res.status} ${json.error?.message ?? ""}`);
    return json as T;
  };
}

type DemoState = { members: { memberId: string }[]; board: { taskId: string }[]; inbox: unknown[]; scope: unknown };
export type DemoOptions = { baseUrl: string; intervalMs: number; adminKey: string; watchers: string[] };

/** Creates the demo pod if needed, its members, and fresh tokens for its agents (revoking the last run's). */
async function prepare(api: ReturnType<typeof client>, adminKey: string, watchers: string[]) {
  const admin = { token: adminKey };
  const { pods } = await api<{ pods: { id: string; name: string }[] }>("/api/v1/pods", admin);
  const podId =
    pods.find((p) => p.name === DEMO_POD_NAME)?.id ??
    (await api<{ id: string }>("/api/v1/pods", { ...admin, method: "POST", body: { name: DEMO_POD_NAME, mode: "collaboration", scope: "A simulated pod: orchestrator, implementer, reviewer, chair and plan gates working a plan, live." } })).id;
  const state = await api<DemoState>(`/api/v1/pods/${podId}/state`, admin);
  const present = new Set(state.members.map((m) => m.memberId));
  for (const m of demoMemberRequests()) if (!present.has(m.memberId)) await api(`/api/v1/pods/${podId}/members`, { ...admin, method: "POST", body: m });
  // The people running podwatch can decide in the demo pod.
  for (const email of watchers) if (!present.has(email)) await api(`/api/v1/pods/${podId}/members`, { ...admin, method: "POST", body: { memberId: email, kind: "human", displayName: "Administrator", roles: ["admin"] } });
  const { tokens } = await api<{ tokens: { id: string; label: string | null; revokedAt: string | null }[] }>(`/api/v1/pods/${podId}/tokens`, admin);
  for (const t of tokens) if (t.label === TOKEN_LABEL && !t.revokedAt) await api(`/api/v1/pods/${podId}/tokens/${t.id}`, { ...admin, method: "DELETE" });
  const tokenOf = new Map<string, string>();
  for (const m of demoMemberRequests()) {
    const { token } = await api<{ token: string }>(`/api/v1/pods/${podId}/members/${m.memberId}/tokens`, { ...admin, method: "POST", body: { label: TOKEN_LABEL } });
    tokenOf.set(m.memberId, token);
  }
  return { podId, tokenOf, state };
}

function post(api: ReturnType<typeof client>, podId: string, step: DemoStep, token: string) {
  const pod = `/api/v1/pods/${podId}`;
  switch (step.via) {
    case "plan":
      return api(`${pod}/plan`, { method: "POST", body: step.body.plan, token });
    case "workcell":
      return api(`${pod}/workcells`, { method: "POST", body: step.body.manifest, token });
    case "proof":
      return api(`${pod}/workcells/${(step.body.proof as { workcell_id: string }).workcell_id}/proof`, { method: "POST", body: step.body.proof, token });
    default: {
      const { via: _via, optional: _optional, ...event } = step;
      return api(`${pod}/events`, { method: "POST", body: { ...event, id: randomUUID(), ts: new Date().toISOString() }, token });
    }
  }
}

export async function startDemo({ baseUrl, intervalMs, adminKey, watchers }: DemoOptions) {
  const api = client(baseUrl);
  const { podId, tokenOf, state: initial } = await prepare(api, adminKey, watchers);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) => new Promise<void>((r) => (timer = setTimeout(r, ms)));
  const state = () => api<DemoState>(`/api/v1/pods/${podId}/state`, { token: adminKey });

  async function play(steps: Iterable<DemoStep>) {
    for (const step of steps) {
      for (;;) {
        if (stopped) return;
        await sleep(intervalMs * (0.5 + Math.random())); // jitter: a tape should not tick like a metronome
        try {
          await post(api, podId, step, tokenOf.get(step.actor)!);
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
      if (!initial.scope) await play(setupSteps());
      let k = 1 + Math.max(0, ...initial.board.map((t) => Number(/^e(\d+)-/.exec(t.taskId)?.[1] ?? 0)));
      while (!stopped) await play(episodeSteps(k++, (await state()).inbox.length));
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

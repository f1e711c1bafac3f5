// The demo simulator plays a pod through the public HTTP API with the agent
// SDK, exactly as outside agents would: the server's admin key sets the pod up
// (members, tokens), then every agent speaks with its own token.
import { PodwatchClient, type EventDraft } from "../sdk/client";
import { PodwatchError } from "../sdk/errors";
import { PodAgent } from "../sdk/pod-agent";
import { demoMemberRequests, episodeSteps, setupSteps, type DemoStep } from "./demo-script";

const DEMO_POD_NAME = "demo";
const TOKEN_LABEL = "demo simulator";

type DemoState = {
  members: { memberId: string }[];
  board: { taskId: string }[];
  inbox: unknown[];
  scope: unknown;
};
export type DemoOptions = { baseUrl: string; intervalMs: number; adminKey: string; watchers: string[] };

/** Creates the demo pod if needed, its members, and fresh tokens for its agents (revoking the last run's). */
async function prepare(baseUrl: string, adminKey: string, watchers: string[]) {
  const admin = new PodwatchClient({ url: baseUrl, token: adminKey });
  const api = <T>(path: string, o: { method?: string; body?: unknown } = {}) =>
    admin.request<T>(o.method ?? "GET", path, o.body);
  const { pods } = await api<{ pods: { id: string; name: string }[] }>("/api/v1/pods");
  const podId =
    pods.find((p) => p.name === DEMO_POD_NAME)?.id ??
    (
      await api<{ id: string }>("/api/v1/pods", {
        method: "POST",
        body: {
          name: DEMO_POD_NAME,
          mode: "collaboration",
          scope:
            "A simulated pod: orchestrator, implementer, reviewer, chair and plan gates working a plan, live.",
        },
      })
    ).id;
  const state = await api<DemoState>(`/api/v1/pods/${podId}/state`);
  const present = new Set(state.members.map((m) => m.memberId));
  for (const m of demoMemberRequests())
    if (!present.has(m.memberId)) await api(`/api/v1/pods/${podId}/members`, { method: "POST", body: m });
  // The people running podwatch can decide in the demo pod.
  for (const email of watchers)
    if (!present.has(email))
      await api(`/api/v1/pods/${podId}/members`, {
        method: "POST",
        body: { memberId: email, kind: "human", displayName: "Administrator", roles: ["admin"] },
      });
  const { tokens } = await api<{ tokens: { id: string; label: string | null; revokedAt: string | null }[] }>(
    `/api/v1/pods/${podId}/tokens`,
  );
  for (const t of tokens)
    if (t.label === TOKEN_LABEL && !t.revokedAt)
      await api(`/api/v1/pods/${podId}/tokens/${t.id}`, { method: "DELETE" });
  const agents = new Map<string, PodAgent>();
  for (const m of demoMemberRequests()) {
    const { token } = await api<{ token: string }>(`/api/v1/pods/${podId}/members/${m.memberId}/tokens`, {
      method: "POST",
      body: { label: TOKEN_LABEL },
    });
    agents.set(
      m.memberId,
      new PodAgent(new PodwatchClient({ url: baseUrl, token, podId, actor: m.memberId })),
    );
  }
  return { podId, agents, state: () => api<DemoState>(`/api/v1/pods/${podId}/state`), initial: state };
}

/** One step, through the SDK verb that carries it. */
function post(agent: PodAgent, step: DemoStep) {
  switch (step.via) {
    case "plan":
      return agent.importPlan(step.body.plan as never);
    case "workcell":
      return agent.openWorkcell(step.body.manifest as never);
    case "proof":
      return agent.submitProof(step.body.proof as never);
    default: {
      const { via: _via, optional: _optional, ...event } = step;
      return agent.client.emit(event as EventDraft);
    }
  }
}

export async function startDemo({ baseUrl, intervalMs, adminKey, watchers }: DemoOptions) {
  const { podId, agents, state, initial } = await prepare(baseUrl, adminKey, watchers);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const sleep = (ms: number) => new Promise<void>((r) => (timer = setTimeout(r, ms)));

  async function play(steps: Iterable<DemoStep>) {
    for (const step of steps) {
      for (;;) {
        if (stopped) return;
        await sleep(intervalMs * (0.5 + Math.random())); // jitter: a tape should not tick like a metronome
        try {
          await post(agents.get(step.actor)!, step);
          break;
        } catch (e) {
          if (e instanceof PodwatchError && e.code === "pod_paused") continue; // a human paused the pod: wait, then go on
          if (e instanceof PodwatchError && e.code === "pod_closed") return void (stopped = true);
          if (step.optional && e instanceof PodwatchError && e.status === 409) break;
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

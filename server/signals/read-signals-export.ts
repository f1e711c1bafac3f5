// GET /api/v1/signals: one row per (pod, agent) across the pods the caller may see — a person
// their pods, the admin token every pod, an agent token or a share link its own pod — and each
// agent added up across them. Without a window the rows are the stored projections (no tape is
// read); with from/to every pod's tape is replayed, in one recomputation slot for the whole export.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { podAccess, type Identity } from "../domain/access/policy";
import type { PodState } from "../domain/state/pod-state";
import type { PodSignals } from "../domain/signals/signal-types";
import { mergeAgentSignals } from "../domain/signals/combine";
import { signalsBetween } from "../domain/signals/signals-window";
import { listPods } from "../pods/read-pods";
import type { AgentSignalsView, SignalsExport } from "../wire/signals";
import { agentView, agentViews } from "./present-signals";
import { recompute } from "./recompute-slots";
import { MAX_PODS_PER_EXPORT, parseWindow, type Window } from "./signals-query";
import { readTape } from "./read-pod-signals";

export type SignalsExportQuery = { pods?: string[]; agent?: string; from?: string; to?: string };
type Pod = { id: string; name: string; state: PodState };

export async function readSignalsExport(app: AppContext, viewer: Identity, q: SignalsExportQuery, nowMs = Date.now()): Promise<SignalsExport> {
  const window = parseWindow(q.from, q.to, nowMs);
  const pods = await podsFor(app, viewer, q.pods);
  if (window && pods.length > MAX_PODS_PER_EXPORT) {
    throw new AppError(400, "too_many_pods", `a window recomputes every pod's tape: name at most ${MAX_PODS_PER_EXPORT} pods with pod= (you see ${pods.length})`);
  }
  const signalsOf = window ? await recompute(app.store, () => windowedSignals(app, pods, window)) : new Map(pods.map((p) => [p.id, p.state.signals]));
  const rows: SignalsExport["rows"] = [];
  for (const p of pods) {
    for (const a of agentViews(signalsOf.get(p.id)!, p.state.members)) {
      if (q.agent === undefined || a.agentId === q.agent) rows.push({ ...a, podId: p.id, podName: p.name });
    }
  }
  return { from: window?.from ?? null, to: window?.to ?? null, rows, agents: acrossPods(rows) };
}

/** The pods asked for (each must be one the caller sees: else 404, as for a pod that does not exist), or all it sees. */
async function podsFor(app: AppContext, viewer: Identity, asked: string[] | undefined): Promise<Pod[]> {
  const all = await listPods(app.store);
  const wanted = asked ? new Set(asked) : null;
  const pods: Pod[] = [];
  for (const pod of all) {
    if (wanted && !wanted.has(pod.id)) continue;
    const state = await app.store.readState(pod.id);
    if (state && podAccess(viewer, pod.id, state) !== "none") pods.push({ id: pod.id, name: pod.name, state });
  }
  const missing = asked?.find((id) => !pods.some((p) => p.id === id));
  if (missing !== undefined) throw new AppError(404, "not_found", `pod ${missing} not found (or not one you may see)`);
  return pods;
}

async function windowedSignals(app: AppContext, pods: Pod[], window: Window): Promise<Map<string, PodSignals>> {
  const out = new Map<string, PodSignals>();
  for (const p of pods) out.set(p.id, signalsBetween(await readTape(app, p.id, p.state.seq), window.fromMs, window.toMs));
  return out;
}

/** Each agent id added up over its rows: its name from the first pod that names it, its roles from all. */
function acrossPods(rows: SignalsExport["rows"]): AgentSignalsView[] {
  const byAgent = new Map<string, SignalsExport["rows"]>();
  for (const r of rows) byAgent.set(r.agentId, [...(byAgent.get(r.agentId) ?? []), r]);
  return [...byAgent.values()].map((mine) => {
    const merged = mine.slice(1).reduce((sum, r) => mergeAgentSignals(sum, strip(r)), strip(mine[0]!));
    const roles = [...new Set(mine.flatMap((r) => r.roles))].sort();
    return { ...agentView(merged, null), displayName: mine.find((r) => r.displayName)?.displayName ?? null, roles };
  });
}

/** A row back to the fold's AgentSignals (the merge must not carry a pod's view fields along). */
function strip(r: SignalsExport["rows"][number]) {
  const { rates: _r, displayName: _d, roles: _o, podId: _p, podName: _n, ...signals } = r;
  return signals;
}

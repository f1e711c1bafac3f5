// GET /api/v1/signals: one row per (pod, agent) across the pods the caller may see — a person
// their pods, the admin token every pod, an agent token or a share link its own pod — and each
// agent added up across them. Without a window the rows are the stored projections (no tape is
// read); with from/to every pod's tape is folded page by page, in one recomputation slot for the
// whole export.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import type { Identity } from "../domain/access/policy";
import type { PodState } from "../domain/state/pod-state";
import type { AgentSignals, PodSignals } from "../domain/signals/signal-types";
import { mergeAgentSignals } from "../domain/signals/combine";
import { visiblePods } from "../pods/visible-pods";
import type { SignalsExport } from "../wire/signals";
import { agentsInOrder, agentView } from "./present-signals";
import { MAX_PODS_PER_EXPORT, parseWindow, type Window } from "./signals-query";
import { windowOfTape } from "./window-of-tape";

export type SignalsExportQuery = { pods?: string[]; agent?: string; from?: string; to?: string };
type Pod = { id: string; name: string; state: PodState };
/** One agent across pods: its signals added up in row order, its name from the first pod that names it, its roles from all. */
type AcrossPods = { signals: AgentSignals; displayName: string | null; roles: Set<string> };

export async function readSignalsExport(
  app: AppContext,
  viewer: Identity,
  q: SignalsExportQuery,
  nowMs = Date.now(),
): Promise<SignalsExport> {
  const window = parseWindow(q.from, q.to, nowMs);
  const pods = await podsFor(app, viewer, q.pods);
  if (window && pods.length > MAX_PODS_PER_EXPORT) {
    throw new AppError(
      400,
      "too_many_pods",
      `a window recomputes every pod's tape: name at most ${MAX_PODS_PER_EXPORT} pods with pod= (you see ${pods.length})`,
    );
  }
  const signalsOf = window
    ? await app.recomputations.run(() => windowedSignals(app, pods, window))
    : new Map(pods.map((p) => [p.id, p.state.signals]));
  const rows: SignalsExport["rows"] = [];
  const across = new Map<string, AcrossPods>();
  for (const p of pods) {
    for (const a of agentsInOrder(signalsOf.get(p.id)!)) {
      if (q.agent !== undefined && a.agentId !== q.agent) continue;
      const row = { ...agentView(a, p.state.members), podId: p.id, podName: p.name };
      rows.push(row);
      const sum = across.get(a.agentId);
      if (!sum)
        across.set(a.agentId, { signals: a, displayName: row.displayName, roles: new Set(row.roles) });
      else {
        sum.signals = mergeAgentSignals(sum.signals, a);
        sum.displayName ??= row.displayName;
        for (const r of row.roles) sum.roles.add(r);
      }
    }
  }
  const agents = [...across.values()].map((x) => ({
    ...agentView(x.signals, null),
    displayName: x.displayName,
    roles: [...x.roles].sort(),
  }));
  return { from: window?.from ?? null, to: window?.to ?? null, rows, agents };
}

/** The pods asked for (each must be one the caller sees: else 404, as for a pod that does not exist), or all it sees. */
async function podsFor(app: AppContext, viewer: Identity, asked: string[] | undefined): Promise<Pod[]> {
  const visible = await visiblePods(app.store, viewer, asked && new Set(asked));
  const missing = asked?.find((id) => !visible.some((v) => v.pod.id === id));
  if (missing !== undefined)
    throw new AppError(404, "not_found", `pod ${missing} not found (or not one you may see)`);
  return visible.map(({ pod, state }) => ({ id: pod.id, name: pod.name, state }));
}

async function windowedSignals(
  app: AppContext,
  pods: Pod[],
  window: Window,
): Promise<Map<string, PodSignals>> {
  const out = new Map<string, PodSignals>();
  for (const p of pods) out.set(p.id, await windowOfTape(app.store, p.id, p.state.seq, window));
  return out;
}

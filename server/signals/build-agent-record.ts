// The signed export of one agent's record (GET /api/v1/signals/record): its signals and every
// stored event they are derived from — each event whose application changed the agent's entry
// in the signals fold — with the hashes and the pod's chain head, signed with the installation's
// key, so a directory or broker can check the numbers against the tape (scripts/verify-record.mjs).
import { sign } from "node:crypto";
import type { AppContext } from "../app-context";
import { AppError, notFound } from "../domain/errors";
import { canonicalJson } from "../domain/canonical-json";
import { applyEvent } from "../domain/state/apply-event";
import { emptyPodState, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import { emptyAgentSignals, signalRates } from "../domain/signals/combine";
import { stepSignals } from "../domain/signals/step-signals";
import { emptyPodSignals, type PodSignals } from "../domain/signals/signal-types";
import type { AgentRecordPayload, RecordEvent, SignedAgentRecord } from "../wire/signals";
import { recompute } from "./recompute-slots";
import { sameValue } from "./same-value";
import { signingKey } from "./signing-key";
import { parseWindow, type Window } from "./signals-query";
import { tapePages } from "./tape-pages";

/** More than this many events is no record a verifier reads in one go: 422, narrow it with from/to. */
export const MAX_RECORD_EVENTS = 20_000;

export type RecordQuery = { agentId: string; from?: string; to?: string };

/** `maxEvents`: the bound (tests lower it). */
export async function buildAgentRecord(app: AppContext, podId: string, current: PodState, q: RecordQuery, { nowMs = Date.now(), maxEvents = MAX_RECORD_EVENTS } = {}): Promise<SignedAgentRecord> {
  const window = parseWindow(q.from, q.to, nowMs);
  const member = Object.hasOwn(current.members, q.agentId) ? current.members[q.agentId]! : null;
  if (!member || member.kind !== "agent") throw notFound(`agent ${q.agentId} in this pod`);
  const key = await signingKey(app.store);
  const payload = await recompute(app.store, () => collect(app, podId, q.agentId, window, nowMs, maxEvents));
  const signature = sign(null, Buffer.from(canonicalJson(payload), "utf8"), key.privateKey).toString("base64");
  return { payload, signature, keyId: key.keyId, algorithm: key.algorithm };
}

async function collect(app: AppContext, podId: string, agentId: string, window: Window | null, nowMs: number, maxEvents: number): Promise<AgentRecordPayload> {
  // Up to the head read here: events appended meanwhile belong to the next export, not half to this one.
  const head = await app.store.readHead(podId);
  if (!head) throw notFound("pod");
  let state = emptyPodState();
  // With a window, the window's own fold (as signalsBetween counts it), kept in the same pass so
  // the tape is never held in memory whole.
  let windowed = emptyPodSignals();
  const events: RecordEvent[] = [];
  for await (const page of tapePages(app.store, podId, head.seq)) {
    for (const row of page) {
      const e = toAppliedEvent(row);
      const next = applyEvent(state, e);
      let changed: boolean;
      if (window) {
        const counted = inWindow(row.receivedAt, window) ? stepSignals(windowed, state, next, e) : windowed;
        changed = !sameValue(entryOf(windowed, agentId), entryOf(counted, agentId));
        windowed = counted;
      } else changed = !sameValue(entryOf(state.signals, agentId), entryOf(next.signals, agentId));
      state = next;
      if (!changed) continue;
      if (events.length === maxEvents) throw tooMany(maxEvents);
      const { id, seq, type, actor, role, ts, receivedAt, body, meta, prevHash, hash } = row;
      events.push({ id, podId: row.podId, seq: Number(seq), type, actor, role, ts, receivedAt, body, meta, prevHash, hash });
    }
  }
  const own = entryOf(window ? windowed : state.signals, agentId) ?? emptyAgentSignals(agentId);
  return {
    podId, agentId, generatedAt: new Date(nowMs).toISOString(), head: { seq: head.seq, hash: head.hash },
    window: window && { from: window.from, to: window.to }, signals: { ...own, rates: signalRates(own) }, events,
  };
}

const entryOf = (sig: PodSignals, agentId: string) => (Object.hasOwn(sig.agents, agentId) ? sig.agents[agentId] : undefined);
const inWindow = (receivedAt: string, w: Window | null) => !w || (Date.parse(receivedAt) >= w.fromMs && Date.parse(receivedAt) < w.toMs);

const tooMany = (max: number) => new AppError(422, "record_too_large", `this agent's record holds more than ${max} events; narrow it with from/to`);

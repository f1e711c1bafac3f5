// The signed export of one agent's record (GET /api/v1/signals/record): its signals and every
// stored event they are derived from — each event whose application changed the agent's entry
// in the signals fold — with the hashes and the pod's chain head, signed with the installation's
// key, so a directory or broker can check the numbers against the tape (scripts/verify-record.mjs).
import { sign } from "node:crypto";
import type { AppContext } from "../app-context";
import { AppError, notFound } from "../domain/errors";
import { applyEvent } from "../domain/state/apply-event";
import type { PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";
import type { StoredEvent } from "../domain/plan-append";
import { emptyAgentSignals, signalRates } from "../domain/signals/combine";
import { stepWindowState, windowStart } from "../domain/signals/signals-window";
import type { PodSignals } from "../domain/signals/signal-types";
import { canonicalJsonInSlices } from "../db/json-in-slices";
import { podHistory } from "../history/pod-history";
import type { AgentRecordPayload, RecordEvent, SignedAgentRecord } from "../wire/signals";
import { sameValue } from "./same-value";
import { signingKey } from "./signing-key";
import { parseWindow, type Window } from "./signals-query";

/** More than this many events, or bytes of their bodies and meta, is no record a verifier reads in one go: 422, narrow it with from/to. */
export const MAX_RECORD_EVENTS = 20_000;
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;

type RecordBounds = { maxEvents: number; maxBytes: number };

export type RecordQuery = { agentId: string; from?: string; to?: string };

/** `maxEvents`, `maxBytes`: the bounds (tests lower them). */
export async function buildAgentRecord(
  app: AppContext,
  podId: string,
  current: PodState,
  q: RecordQuery,
  { nowMs = Date.now(), maxEvents = MAX_RECORD_EVENTS, maxBytes = MAX_RECORD_BYTES } = {},
): Promise<SignedAgentRecord> {
  const window = parseWindow(q.from, q.to, nowMs);
  const member = Object.hasOwn(current.members, q.agentId) ? current.members[q.agentId]! : null;
  if (!member || member.kind !== "agent") throw notFound(`agent ${q.agentId} in this pod`);
  const key = await signingKey(app.store);
  const payload = await app.recomputations.run(() =>
    collect(app, podId, q.agentId, window, nowMs, { maxEvents, maxBytes }),
  );
  // A record of thousands of events is 20-25 ms of canonicalJson in one step: made in slices (the same text).
  const signature = sign(
    null,
    Buffer.from(await canonicalJsonInSlices(payload), "utf8"),
    key.privateKey,
  ).toString("base64");
  return { payload, signature, keyId: key.keyId, algorithm: key.algorithm };
}

async function collect(
  app: AppContext,
  podId: string,
  agentId: string,
  window: Window | null,
  nowMs: number,
  bounds: RecordBounds,
): Promise<AgentRecordPayload> {
  // Up to the head read here: events appended meanwhile belong to the next export, not half to this one.
  const head = await app.store.readHead(podId);
  if (!head) throw notFound("pod");
  // The state, its signals the window's own counts with a window (windowStart: as signalsBetween
  // counts them), kept in the same pass. With a window the pass starts at the latest checkpoint
  // before it (nothing earlier is counted, so no earlier event changes the agent's counts) and
  // stores none (its state is no pod's); without one, at seq 1.
  const events: RecordEvent[] = [];
  let bytes = 0;
  const step = (s: PodState, row: StoredEvent): PodState => {
    const e = toAppliedEvent(row);
    const next = window ? stepWindowState(s, e, window.fromMs, window.toMs) : applyEvent(s, e);
    if (sameValue(entryOf(s.signals, agentId), entryOf(next.signals, agentId))) return next;
    // Bodies (evidence up to 1 MiB each) and meta are most of a record's bytes: bounded as they are collected.
    bytes += Buffer.byteLength(row.body, "utf8") + (row.meta ? Buffer.byteLength(row.meta, "utf8") : 0);
    if (events.length === bounds.maxEvents) throw tooLarge(`more than ${bounds.maxEvents} events`);
    if (bytes > bounds.maxBytes) throw tooLarge(`more than ${bounds.maxBytes} bytes of event bodies`);
    const { id, seq, type, actor, role, ts, receivedAt, body, meta, prevHash, hash } = row;
    events.push({
      id,
      podId: row.podId,
      seq: Number(seq),
      type,
      actor,
      role,
      ts,
      receivedAt,
      body,
      meta,
      prevHash,
      hash,
    });
    return next;
  };
  const fold = await podHistory(app.store).foldFrom<PodState>(
    podId,
    window?.fromMs ?? null,
    head.seq,
    window ? { step } : { step, state: (s) => s },
    window ? windowStart : (s) => s,
  );
  const own = entryOf(fold.signals, agentId) ?? emptyAgentSignals(agentId);
  return {
    podId,
    agentId,
    generatedAt: new Date(nowMs).toISOString(),
    head: { seq: head.seq, hash: head.hash },
    window: window && { from: window.from, to: window.to },
    signals: { ...own, rates: signalRates(own) },
    events,
  };
}

const entryOf = (sig: PodSignals, agentId: string) =>
  Object.hasOwn(sig.agents, agentId) ? sig.agents[agentId] : undefined;

const tooLarge = (what: string) =>
  new AppError(422, "record_too_large", `this agent's record holds ${what}; narrow it with from/to`);

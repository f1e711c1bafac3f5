// Holds a gated tool call until its approval is answered (by a person, or by the deadline's
// default), the caller hangs up, the node begins to drain, or the wait runs out. Like wait-for-events.ts it listens
// before it reads, so an answer committed in between is never missed; it re-reads the pod's
// state only when a commit answers this very request — one answer must not make every held
// call of the pod re-read a big state (no polling either).
import type { TapeStore } from "../db/tape-store";
import type { PodState, ToolApproval } from "../domain/state/pod-state";
import type { CommittedBatch, TapeBus } from "../tape/bus";
import type { TapeEvent } from "../wire/events";

export type ApprovalAnswer = NonNullable<ToolApproval["answer"]>;
export type WaitOutcome =
  { answer: ApprovalAnswer } | { ended: "timeout" | "aborted" | "drained" | "unknown_request" };

/** Whether `e` could answer the approval `requestId`: a person's answer to it, or its deadline passing. */
export function answersRequest(e: TapeEvent, requestId: string): boolean {
  // The bus carries events as committed (bodies untyped on the wire): read only what identifies the request.
  const body = e.body as { requestId?: unknown; subject?: { kind?: unknown; id?: unknown } } | null;
  if (e.type === "tool.approval.answered") return body?.requestId === requestId;
  if (e.type === "deadline.passed") return body?.subject?.kind === "tool" && body.subject.id === requestId;
  return false;
}

export async function waitForApproval(
  store: TapeStore,
  bus: TapeBus,
  podId: string,
  requestId: string,
  o: WaitOptions,
): Promise<WaitOutcome> {
  const waited = await waitOnTape(store, bus, podId, o, {
    wakes: (e) => answersRequest(e, requestId),
    read: (state) => {
      const approval = state?.toolApprovals[requestId];
      if (!approval) return { ended: "unknown_request" as const };
      return approval.answer ? { answer: approval.answer } : undefined;
    },
  });
  return "ended" in waited ? waited : waited.value;
}

export type WaitOptions = { waitMs: number; signal: AbortSignal; drain?: AbortSignal };

/**
 * Waits until `read` finds what it waits for in the pod's state (re-read only when a committed
 * event `wakes` it), the caller hangs up, the node drains, or `waitMs` runs out. What `read` finds
 * wins over a drain or a timeout noticed at the same moment. Shared by every hold of a hook's answer
 * (a gated call; a Stop held for a person's Resume, server/steer/hold-idle-stop.ts).
 */
export async function waitOnTape<T>(
  store: TapeStore,
  bus: TapeBus,
  podId: string,
  o: WaitOptions,
  w: { wakes: (e: TapeEvent) => boolean; read: (state: PodState | null) => T | undefined },
): Promise<{ value: T } | { ended: "timeout" | "aborted" | "drained" }> {
  if (o.signal.aborted) return { ended: "aborted" };
  let wake: () => void = () => {};
  let timedOut = false;
  const onCommitted = (b: CommittedBatch) => {
    if (b.podId === podId && b.events.some(w.wakes)) wake();
  };
  const onAbort = () => wake();
  const timer = setTimeout(() => ((timedOut = true), wake()), o.waitMs);
  bus.on("committed", onCommitted);
  o.signal.addEventListener("abort", onAbort, { once: true });
  o.drain?.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const value = w.read(await store.readState(podId));
      if (value !== undefined) return { value };
      if (o.signal.aborted) return { ended: "aborted" };
      if (o.drain?.aborted) return { ended: "drained" };
      if (timedOut) return { ended: "timeout" };
      await woken;
    }
  } finally {
    clearTimeout(timer);
    bus.off("committed", onCommitted);
    o.signal.removeEventListener("abort", onAbort);
    o.drain?.removeEventListener("abort", onAbort);
  }
}

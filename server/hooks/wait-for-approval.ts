// Holds a gated tool call until its approval is answered (by a person, or by the deadline's
// default), the caller hangs up, or the wait runs out. Like wait-for-events.ts it listens
// before it reads, so an answer committed in between is never missed; it re-reads the pod's
// state only when a commit could have answered (no polling).
import type { TapeStore } from "../db/tape-store";
import type { ToolApproval } from "../domain/state/pod-state";
import type { CommittedBatch, TapeBus } from "../tape/bus";

export type ApprovalAnswer = NonNullable<ToolApproval["answer"]>;
export type WaitOutcome = { answer: ApprovalAnswer } | { ended: "timeout" | "aborted" | "unknown_request" };

const ANSWERING = new Set(["tool.approval.answered", "deadline.passed"]);

export async function waitForApproval(store: TapeStore, bus: TapeBus, podId: string, requestId: string, o: { waitMs: number; signal: AbortSignal }): Promise<WaitOutcome> {
  if (o.signal.aborted) return { ended: "aborted" };
  let wake: () => void = () => {};
  let timedOut = false;
  const onCommitted = (b: CommittedBatch) => {
    if (b.podId === podId && b.events.some((e) => ANSWERING.has(e.type))) wake();
  };
  const onAbort = () => wake();
  const timer = setTimeout(() => ((timedOut = true), wake()), o.waitMs);
  bus.on("committed", onCommitted);
  o.signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const approval = (await store.readState(podId))?.toolApprovals[requestId];
      if (!approval) return { ended: "unknown_request" };
      if (approval.answer) return { answer: approval.answer };
      if (o.signal.aborted) return { ended: "aborted" };
      if (timedOut) return { ended: "timeout" };
      await woken;
    }
  } finally {
    clearTimeout(timer);
    bus.off("committed", onCommitted);
    o.signal.removeEventListener("abort", onAbort);
  }
}

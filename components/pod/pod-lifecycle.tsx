"use client";
// A pod's life, for its admins: start a forming pod (the one Start button, on the setup view), close
// it (after a confirmation, with an optional reason). Pause/resume is PauseButton's (approvers).
import { useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import { closePod, startPod } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";
import { buttonClass, dangerButtonClass, inputClass, secondaryButtonClass } from "./form-styles";

export function StartPodButton({ podId, state }: { podId: string; state: PodStateView }) {
  const { run, pending, error } = useAction(podId);
  if (state.status !== "forming") return null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <button
        className={buttonClass}
        disabled={pending || !state.scope}
        title={state.scope ? undefined : "Agree the scope first"}
        onClick={() => run(() => startPod({ podId }))}
        data-testid="start-pod"
      >
        Start pod
      </button>
      {!state.scope && <span className="text-xs text-zinc-500">Agree the scope first.</span>}
      {error && (
        <span role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </span>
  );
}

export function PodLifecycle({ podId, state }: { podId: string; state: PodStateView }) {
  const { run, pending, error } = useAction(podId);
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState("");
  if (state.status === "closed") return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="pod-lifecycle">
      {!confirming ? (
        <button className={secondaryButtonClass} onClick={() => setConfirming(true)} data-testid="close-pod">
          Close pod…
        </button>
      ) : (
        <form
          role="group"
          aria-label="Close the pod"
          className="flex w-full flex-wrap items-center gap-2 rounded-md border border-red-300 bg-red-50 p-2 dark:border-red-900 dark:bg-red-950/40"
          onSubmit={(e) => {
            e.preventDefault();
            run(
              () => closePod({ podId, reason: reason.trim() || undefined }),
              () => setConfirming(false),
            );
          }}
        >
          <span className="text-red-900 dark:text-red-200">
            Closing ends the pod: agents can no longer work in it.
          </span>
          <input
            className={`${inputClass} min-w-0 flex-1`}
            aria-label="Reason for closing (optional)"
            placeholder="Reason (optional)"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            maxLength={2000}
            autoFocus
          />
          <button className={dangerButtonClass} disabled={pending} data-testid="confirm-close-pod">
            Close pod for good
          </button>
          <button type="button" className={secondaryButtonClass} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </form>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

"use client";
// What waits for a human on this pod: answer escalations, decide on reviewed
// work, accept or reject delivered jobs. Controls render only for approvers;
// the server checks again on every action.
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { PodStateView } from "@/server/pods/present-pod-state";
import { answerEscalation, decide } from "@/app/pods/[podId]/actions";
import { usePodState } from "./use-pod-state";
import { RelativeTime } from "./relative-time";

type Item = PodStateView["inbox"][number];

export function InboxPanel({ podId, canAct }: { podId: string; canAct: boolean }) {
  const state = usePodState(podId);
  if (state.isPending) return <div className="h-24 animate-pulse rounded-lg bg-zinc-200/70 dark:bg-zinc-800/70" aria-label="Loading the inbox" />;
  if (state.isError) return <p role="alert" className="text-sm text-red-700 dark:text-red-400">Could not load the inbox: {state.error.message}</p>;
  const items = state.data.inbox;
  return (
    <section aria-label="Inbox" className="space-y-2">
      <h2 className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
        Needs a human <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-800 dark:bg-amber-950 dark:text-amber-300" data-testid="inbox-count">{items.length}</span>
      </h2>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-500 dark:border-zinc-700">Nothing waits for a decision.</p>
      ) : (
        <ul className="space-y-2">
          {items.map((item) => (
            <InboxItem key={item.id} podId={podId} item={item} state={state.data} canAct={canAct} />
          ))}
        </ul>
      )}
    </section>
  );
}

function InboxItem({ podId, item, state, canAct }: { podId: string; item: Item; state: PodStateView; canAct: boolean }) {
  const qc = useQueryClient();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const act = (run: () => Promise<{ ok: boolean; error?: string }>) =>
    start(async () => {
      setError(null);
      const r = await run();
      if (!r.ok) setError(r.error ?? "refused");
      else setText("");
      await qc.invalidateQueries({ queryKey: ["state", podId] });
    });

  const task = item.subject.kind === "task" ? state.board.find((t) => t.taskId === item.subject.id) : undefined;
  const blockedBy = task?.failingGates ?? [];
  const button = "rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50";
  const decideWith = (verdict: "approve" | "reject" | "accept" | "block") => () =>
    act(() => decide({ podId, subject: item.subject, verdict, rationale: text || (verdict === "approve" || verdict === "accept" ? "Approved in the control room" : "Rejected in the control room") }));

  return (
    <li className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900" data-testid="inbox-item" data-kind={item.kind}>
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium uppercase text-amber-800 dark:bg-amber-950 dark:text-amber-300">{item.kind.replace("_", " ")}</span>
        <p className="min-w-0 flex-1 text-sm break-words">{item.title}</p>
        <span className="text-xs text-zinc-500"><RelativeTime iso={item.at} /></span>
      </div>
      {canAct && (
        <div className="space-y-2">
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={item.kind === "escalation" ? "Your answer" : "Rationale (optional)"}
            aria-label={item.kind === "escalation" ? "Answer" : "Rationale"}
            className="w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
          <div className="flex flex-wrap items-center gap-2">
            {item.kind === "escalation" ? (
              <>
                {(item.options ?? []).map((o) => (
                  <button key={o} disabled={pending} onClick={() => act(() => answerEscalation({ podId, escalationId: item.subject.id, answer: o }))} className={`${button} border border-zinc-300 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800`}>
                    {o}
                  </button>
                ))}
                <button disabled={pending || !text.trim()} onClick={() => act(() => answerEscalation({ podId, escalationId: item.subject.id, answer: text }))} className={`${button} bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900`}>
                  Answer
                </button>
              </>
            ) : item.kind === "job_acceptance" ? (
              <>
                <button disabled={pending} onClick={decideWith("accept")} className={`${button} bg-emerald-600 text-white hover:bg-emerald-500`}>Accept and release</button>
                <button disabled={pending} onClick={decideWith("reject")} className={`${button} bg-red-600 text-white hover:bg-red-500`}>Reject and refund</button>
              </>
            ) : item.kind === "plan_blocked" ? (
              <button disabled={pending} onClick={decideWith("approve")} className={`${button} bg-emerald-600 text-white hover:bg-emerald-500`}>Approve the plan</button>
            ) : (
              <>
                <button disabled={pending || blockedBy.length > 0} onClick={decideWith("approve")} className={`${button} bg-emerald-600 text-white hover:bg-emerald-500`} title={blockedBy.length ? `Blocked: ${blockedBy.join("; ")}` : undefined}>
                  Approve
                </button>
                <button disabled={pending} onClick={decideWith("reject")} className={`${button} bg-red-600 text-white hover:bg-red-500`}>Reject</button>
                {blockedBy.length > 0 && <span className="text-xs text-red-700 dark:text-red-400" data-testid="approve-blocked">Approve is disabled: {blockedBy.join("; ")}</span>}
              </>
            )}
          </div>
          {error && <p role="alert" className="text-sm text-red-700 dark:text-red-400">{error}</p>}
        </div>
      )}
    </li>
  );
}

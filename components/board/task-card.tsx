"use client";
// A task's card: who implements and reviews it, evidence and gate badges, dependencies and why it
// is blocked; an approver may split a task not yet started.
import { useEffect, useRef } from "react";
import type { PodStateView } from "@/server/wire/views";
import { Badge } from "../shared/ui";
import { SplitTask } from "../pod/steer-controls";
import type { BoardTask } from "./board-model";

export function TaskCard({
  task,
  state,
  podId,
  canAct,
  linked,
}: {
  task: BoardTask;
  state: PodStateView;
  podId: string;
  canAct: boolean;
  /** The address links to this task (?task=, as the inbox does): outlined and scrolled into view. */
  linked: boolean;
}) {
  const tone =
    task.status === "blocked" || task.status === "rejected"
      ? "red"
      : task.status === "changes_requested"
        ? "amber"
        : task.status === "done"
          ? "green"
          : "zinc";
  const proofs = task.workcellIds
    .map((id) => state.workcells.find((w) => w.workcellId === id)?.proof)
    .filter((p) => p != null);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (linked) ref.current?.scrollIntoView({ block: "center" });
  }, [linked]);
  return (
    <article
      ref={ref}
      className={`space-y-1.5 rounded-md border bg-white p-2.5 text-sm shadow-sm dark:bg-zinc-950 ${linked ? "border-sky-600 ring-2 ring-sky-600 dark:border-sky-400 dark:ring-sky-400" : "border-zinc-200 dark:border-zinc-800"}`}
      data-testid="task-card"
      data-task={task.taskId}
      data-status={task.status}
      data-linked={linked || undefined}
      aria-current={linked ? "true" : undefined}
    >
      <div className="flex items-start justify-between gap-2">
        <p className="min-w-0 font-medium break-words">{task.description}</p>
        <Badge tone={tone}>{task.status.replace("_", " ")}</Badge>
      </div>
      <p className="font-mono text-[11px] break-all text-zinc-600 dark:text-zinc-400">{task.taskId}</p>
      <div className="flex flex-wrap gap-1">
        {task.implementer && <Badge title="implementer">✎ {task.implementer}</Badge>}
        {task.reviewer && (
          <Badge tone="sky" title="reviewer">
            ✓ {task.reviewer}
          </Badge>
        )}
        {task.evidenceIds.length > 0 && (
          <Badge tone="violet" title={task.evidenceIds.join(", ")}>
            {task.evidenceIds.length} evidence
          </Badge>
        )}
        {proofs.map((p, i) => (
          <Badge
            key={i}
            tone={p.allPassed && !p.forbiddenPathViolations.length && !p.overDiffBudget ? "green" : "red"}
            title={p.failingGates.length ? `failing: ${p.failingGates.join(", ")}` : "all gates passed"}
          >
            gates {p.allPassed ? "passed" : `failed: ${p.failingGates.join(", ")}`}
          </Badge>
        ))}
        {task.reviewRounds > 1 && <Badge tone="amber">{task.reviewRounds} review rounds</Badge>}
      </div>
      {task.dependsOn.length > 0 && (
        <p className="text-xs break-words text-zinc-600 dark:text-zinc-400">
          depends on {task.dependsOn.join(", ")}
        </p>
      )}
      {task.blockedReason && (
        <p className="text-xs text-red-700 dark:text-red-400">Blocked: {task.blockedReason}</p>
      )}
      {task.failingGates.length > 0 && task.status === "in_review" && (
        <p className="text-xs text-red-700 dark:text-red-400">
          Cannot be approved: {task.failingGates.join("; ")}
        </p>
      )}
      {canAct && (task.status === "pending" || task.status === "blocked") && (
        <SplitTask podId={podId} taskId={task.taskId} />
      )}
    </article>
  );
}

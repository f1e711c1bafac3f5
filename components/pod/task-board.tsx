"use client";
// The board: tasks in columns by state, live. Cards show who implements and
// reviews, evidence and gate badges, dependencies and why a task is blocked.
import { useEffect, useRef } from "react";
import { useSearchParams } from "next/navigation";
import type { PodStateView } from "@/server/wire/views";
import { Badge, Empty, useLimited } from "../shared/ui";
import { SplitTask } from "./steer-controls";

const COLUMNS: { title: string; states: string[] }[] = [
  { title: "To do", states: ["pending", "blocked"] },
  { title: "In progress", states: ["in_progress", "changes_requested"] },
  { title: "In review", states: ["in_review"] },
  { title: "Done", states: ["done"] },
  { title: "Closed", states: ["rejected", "cancelled"] },
];

type Task = PodStateView["board"][number];

export function TaskBoard({ state, podId, canAct }: { state: PodStateView; podId: string; canAct: boolean }) {
  if (state.board.length === 0)
    return (
      <Empty>
        No tasks yet. Agents add them with plan.imported or task.added (POST /api/v1/pods/…/plan).
      </Empty>
    );
  return (
    <div className="grid gap-3 md:grid-cols-3 xl:grid-cols-5" data-testid="board">
      {COLUMNS.map((col) => (
        <Column
          key={col.title}
          title={col.title}
          tasks={state.board.filter((t) => col.states.includes(t.status))}
          state={state}
          podId={podId}
          canAct={canAct}
        />
      ))}
    </div>
  );
}

/** Finished columns show their newest cards first, a dozen at a time. */
function Column({
  title,
  tasks,
  state,
  podId,
  canAct,
}: {
  title: string;
  tasks: Task[];
  state: PodStateView;
  podId: string;
  canAct: boolean;
}) {
  const finished = title === "Done" || title === "Closed";
  const { shown, more } = useLimited(finished ? [...tasks].reverse() : tasks, finished ? 12 : 50);
  return (
    <div
      className="min-w-0 space-y-2 rounded-lg bg-zinc-100/70 p-2 dark:bg-zinc-900/60"
      data-testid="board-column"
      data-column={title}
    >
      <h3 className="flex items-center justify-between px-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {title} <span className="tabular-nums">{tasks.length}</span>
      </h3>
      {shown.map((t) => (
        <TaskCard key={t.taskId} task={t} state={state} podId={podId} canAct={canAct} />
      ))}
      {more}
    </div>
  );
}

function TaskCard({
  task,
  state,
  podId,
  canAct,
}: {
  task: Task;
  state: PodStateView;
  podId: string;
  canAct: boolean;
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
  // ?task=<id> (the inbox links here): the card is outlined and scrolled into view.
  const linked = useSearchParams().get("task") === task.taskId;
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

"use client";
// The board, live: blocked tasks and those waiting for a decision pinned on top, then the rest
// grouped (by state as columns, by assignee, or by a field of the plan such as a milestone), each
// group collapsible and shown a page at a time, so a 3,000-task plan is a page a person can read.
// Search and filters run over the tasks the state already holds, and are kept in the address.
import { useDeferredValue, useMemo, useState } from "react";
import { useSearchParams } from "next/navigation";
import type { PodStateView } from "@/server/wire/views";
import { Empty } from "../shared/ui";
import {
  assigneesOf,
  groupTasks,
  groupingFields,
  laneOf,
  matcher,
  openQuestions,
  type Grouping,
} from "../board/board-model";
import { BoardGroupView } from "../board/board-group";
import { BoardToolbar } from "../board/board-toolbar";
import { TaskCard } from "../board/task-card";
import { useBoardQuery } from "../board/use-board-query";

export function TaskBoard({ state, podId, canAct }: { state: PodStateView; podId: string; canAct: boolean }) {
  if (state.board.length === 0)
    return (
      <div data-testid="board-empty">
        {canAct ? (
          <Empty>
            No tasks yet. The plan arrives when the pod&apos;s agents post it, all at once or a task at a time
            as they find the work. Add a task above to start it yourself.
          </Empty>
        ) : (
          <Empty>No tasks yet: the plan is empty.</Empty>
        )}
      </div>
    );
  return <Board state={state} podId={podId} canAct={canAct} />;
}

function Board({ state, podId, canAct }: { state: PodStateView; podId: string; canAct: boolean }) {
  const [query, update] = useBoardQuery();
  const linked = useSearchParams().get("task");
  // The box answers each keystroke; the board follows as soon as rendering allows.
  const [text, setText] = useState(query.q);
  const q = useDeferredValue(text);
  const onText = (value: string) => (setText(value), update({ q: value.trim() ? value : "" }));
  const names = useMemo(
    () => new Map(state.members.map((m) => [m.memberId, m.displayName])),
    [state.members],
  );
  const laned = useMemo(() => {
    const questions = openQuestions(state);
    return state.board.map((task) => ({ task, lane: laneOf(task, questions) }));
  }, [state]);
  const fields = useMemo(() => groupingFields(state.board), [state.board]);
  const assignees = useMemo(() => assigneesOf(state.board), [state.board]);
  // A field the plan no longer groups by (an old link) falls back to the columns by state.
  const grouping: Grouping = useMemo(
    () =>
      query.grouping.by === "field" && !fields.includes(query.grouping.field)
        ? { by: "state" }
        : query.grouping,
    [query.grouping, fields],
  );
  const { lane, assignee } = query;
  const matched = useMemo(() => {
    const keep = matcher({ q, lane, assignee }, names);
    return laned.filter(({ task, lane }) => keep(task, lane));
  }, [laned, q, lane, assignee, names]);
  const groups = useMemo(() => groupTasks(matched, grouping, names), [matched, grouping, names]);
  const collapsed = new Set(query.collapsed);
  const toggle = (key: string) =>
    update({
      collapsed: collapsed.has(key) ? query.collapsed.filter((k) => k !== key) : [...query.collapsed, key],
    });
  return (
    <div className="space-y-3" data-testid="board">
      <BoardToolbar
        text={text}
        onText={onText}
        query={{ ...query, grouping }}
        update={update}
        assignees={assignees}
        names={names}
        fields={fields}
        matched={matched.length}
        total={state.board.length}
      />
      <div className="grid items-start gap-3 md:grid-cols-3 xl:grid-cols-5">
        {groups.map((g) => (
          <BoardGroupView
            key={g.key}
            group={g}
            collapsed={collapsed.has(g.key)}
            onToggle={() => toggle(g.key)}
            linked={linked}
            card={(task) => (
              <TaskCard
                key={task.taskId}
                task={task}
                state={state}
                podId={podId}
                canAct={canAct}
                linked={linked === task.taskId}
              />
            )}
          />
        ))}
      </div>
    </div>
  );
}

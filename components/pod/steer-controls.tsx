"use client";
// Orchestration from the control room, for approvers: pause/resume, hand off,
// assign and rotate roles, add and split tasks. The server checks each one.
import { useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import { ROLES, type Role } from "@/server/wire/vocabulary";
import { addTask, assignRole, handOff, rotateRole, setPaused, splitTask } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";

const input =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950";
const button =
  "rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900";
const Err = ({ error }: { error: string | null }) =>
  error ? (
    <p role="alert" className="text-sm text-red-700 dark:text-red-400">
      {error}
    </p>
  ) : null;

export function PauseButton({ podId, state }: { podId: string; state: PodStateView }) {
  const { run, pending, error } = useAction(podId);
  if (state.status !== "active" && state.status !== "paused") return null;
  const paused = state.status === "paused";
  return (
    <>
      <button
        disabled={pending}
        onClick={() =>
          run(() =>
            setPaused({
              podId,
              paused: !paused,
              reason: paused ? undefined : "Paused from the control room",
            }),
          )
        }
        className="rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        {paused ? "Resume pod" : "Pause pod"}
      </button>
      <Err error={error} />
    </>
  );
}

export function AddTaskForm({ podId }: { podId: string }) {
  const { run, pending, error } = useAction(podId);
  const [text, setText] = useState("");
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      onSubmit={(e) => (
        e.preventDefault(),
        run(
          () => addTask({ podId, description: text }),
          () => setText(""),
        )
      )}
    >
      <input
        aria-label="New task"
        placeholder="Add a task…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        className={`${input} min-w-48 flex-1`}
      />
      <button disabled={pending || !text.trim()} className={button}>
        Add task
      </button>
      <Err error={error} />
    </form>
  );
}

export function SplitTask({ podId, taskId }: { podId: string; taskId: string }) {
  const { run, pending, error } = useAction(podId);
  const [open, setOpen] = useState(false);
  const [parts, setParts] = useState("");
  if (!open)
    return (
      <button onClick={() => setOpen(true)} className="text-xs text-zinc-500 hover:underline">
        Split…
      </button>
    );
  const list = parts
    .split("\n")
    .map((p) => p.trim())
    .filter(Boolean);
  return (
    <div className="space-y-1">
      <textarea
        aria-label={`Parts of ${taskId}, one per line`}
        rows={3}
        value={parts}
        onChange={(e) => setParts(e.target.value)}
        placeholder="One part per line"
        className={`${input} w-full`}
      />
      <div className="flex gap-2">
        <button
          disabled={pending || list.length < 2}
          onClick={() =>
            run(
              () => splitTask({ podId, taskId, parts: list }),
              () => setOpen(false),
            )
          }
          className={button}
        >
          Split into {list.length}
        </button>
        <button onClick={() => setOpen(false)} className="text-xs text-zinc-500">
          Cancel
        </button>
      </div>
      <Err error={error} />
    </div>
  );
}

export function MemberControls({ podId, state }: { podId: string; state: PodStateView }) {
  const handoff = useAction(podId);
  const roles = useAction(podId);
  const agents = state.members.filter((m) => m.kind === "agent");
  const [to, setTo] = useState(agents[0]?.memberId ?? "");
  const [reason, setReason] = useState("");
  const [member, setMember] = useState(agents[0]?.memberId ?? "");
  const [role, setRole] = useState<Role>("reviewer");
  const holder = state.members.find((m) => m.roles.includes(role));
  if (!agents.length) return null;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <form
        className="space-y-2"
        aria-label="Hand off"
        onSubmit={(e) => (
          e.preventDefault(),
          handoff.run(
            () => handOff({ podId, to, reason }),
            () => setReason(""),
          )
        )}
      >
        <p className="text-sm font-medium">Hand off</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Hand off gives the work to another agent: it becomes the pod&apos;s active agent, and your reason
          goes on the tape.
        </p>
        <div className="flex flex-wrap gap-2">
          <select
            aria-label="Hand off to"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            className={input}
          >
            {agents.map((m) => (
              <option key={m.memberId} value={m.memberId}>
                {m.displayName}
              </option>
            ))}
          </select>
          <input
            aria-label="Reason"
            placeholder="Why"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className={`${input} flex-1`}
          />
          <button disabled={handoff.pending || !reason.trim()} className={button}>
            Hand off
          </button>
        </div>
        <Err error={handoff.error} />
      </form>
      <div className="space-y-2">
        <p className="text-sm font-medium">Roles</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Rotating moves a role from the member who holds it to the one you pick; Assign gives the member the
          role.
        </p>
        <div className="flex flex-wrap gap-2">
          <select
            aria-label="Role"
            value={role}
            onChange={(e) => setRole(ROLES.find((r) => r === e.target.value) ?? role)}
            className={input}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <select
            aria-label="Member"
            value={member}
            onChange={(e) => setMember(e.target.value)}
            className={input}
          >
            {agents.map((m) => (
              <option key={m.memberId} value={m.memberId}>
                {m.displayName}
              </option>
            ))}
          </select>
          {holder && holder.memberId !== member ? (
            <button
              disabled={roles.pending}
              onClick={() => roles.run(() => rotateRole({ podId, role, from: holder.memberId, to: member }))}
              className={button}
            >
              Rotate from {holder.displayName}
            </button>
          ) : (
            <button
              disabled={roles.pending}
              onClick={() => roles.run(() => assignRole({ podId, memberId: member, role }))}
              className={button}
            >
              Assign
            </button>
          )}
        </div>
        <Err error={roles.error} />
      </div>
    </div>
  );
}

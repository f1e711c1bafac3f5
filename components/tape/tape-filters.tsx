"use client";
// The tape's filters: type, role, actor, task, run and free text. Kept in a
// store so they survive switching tabs.
import { EVENT_TYPES, ROLES } from "@/server/wire/vocabulary";
import { isFiltered, useTapeFilter } from "./tape-filter-store";

const input =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950";

export function TapeFilters() {
  const { filter, set, clear } = useTapeFilter();
  const filtered = isFiltered(filter);
  return (
    <form
      className="flex flex-wrap gap-2"
      role="search"
      aria-label="Filter the tape"
      onSubmit={(e) => e.preventDefault()}
    >
      <select
        aria-label="Type"
        value={filter.type}
        onChange={(e) => set({ type: e.target.value })}
        className={input}
      >
        <option value="">All types</option>
        {EVENT_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
      <select
        aria-label="Role"
        value={filter.role}
        onChange={(e) => set({ role: e.target.value })}
        className={input}
      >
        <option value="">All roles</option>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <input
        aria-label="Actor"
        placeholder="Actor"
        value={filter.actor}
        onChange={(e) => set({ actor: e.target.value })}
        className={`${input} w-32`}
      />
      <input
        aria-label="Task"
        placeholder="Task"
        value={filter.taskId}
        onChange={(e) => set({ taskId: e.target.value })}
        className={`${input} w-28`}
      />
      <input
        aria-label="Run"
        placeholder="Run"
        value={filter.runId}
        onChange={(e) => set({ runId: e.target.value })}
        className={`${input} w-24`}
      />
      <input
        aria-label="Search text"
        type="search"
        placeholder="Search text…"
        value={filter.q}
        onChange={(e) => set({ q: e.target.value })}
        className={`${input} min-w-40 flex-1`}
      />
      {filtered && (
        <button
          type="button"
          onClick={clear}
          className="rounded-md px-2 py-1 text-sm text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-800"
        >
          Clear
        </button>
      )}
    </form>
  );
}

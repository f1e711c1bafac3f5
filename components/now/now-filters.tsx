"use client";
// "Now"'s filters, kept in the URL's query (?pod=…&kind=…&agent=…&person=…) so a filtered view can be
// shared and survives a reload: by pod, by agent program, by agent, by the person who connected it.
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { NowPod, NowSession } from "@/server/wire/now";
import { AGENT_KIND_LABELS } from "../inbox/agent-kind-badge";

export type NowFilter = { pod: string; kind: string; agent: string; person: string };

/** No filter: every session. */
export const NO_FILTER: NowFilter = { pod: "", kind: "", agent: "", person: "" };

export function useNowFilter(): [NowFilter, (f: Partial<NowFilter>) => void] {
  const params = useSearchParams();
  const router = useRouter();
  const path = usePathname();
  const filter = {
    pod: params.get("pod") ?? "",
    kind: params.get("kind") ?? "",
    agent: params.get("agent") ?? "",
    person: params.get("person") ?? "",
  };
  const set = (f: Partial<NowFilter>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(f)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    const q = next.toString();
    router.replace(q ? `${path}?${q}` : path, { scroll: false });
  };
  return [filter, set];
}

export const matches = (f: NowFilter, s: NowSession) =>
  (!f.pod || s.podId === f.pod) &&
  (!f.kind || (f.kind === "other" ? s.kind === null : s.kind === f.kind)) &&
  (!f.agent || s.agentId === f.agent) &&
  (!f.person || s.connectedBy?.id === f.person);

const select =
  "min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900";

export function NowFilters({
  pods,
  sessions,
  filter,
  onChange,
}: {
  pods: NowPod[];
  sessions: NowSession[];
  filter: NowFilter;
  onChange: (f: Partial<NowFilter>) => void;
}) {
  const agents = [...new Map(sessions.map((s) => [s.agentId, s.agentName])).entries()].sort((a, b) =>
    a[1].localeCompare(b[1]),
  );
  const people = [
    ...new Map(sessions.flatMap((s) => (s.connectedBy ? [[s.connectedBy.id, s.connectedBy.name]] : []))),
  ].sort((a, b) => a[1].localeCompare(b[1]));
  const active = filter.pod || filter.kind || filter.agent || filter.person;
  return (
    <form
      aria-label="Filter sessions"
      className="grid grid-cols-1 gap-2 sm:flex sm:flex-wrap sm:items-end"
      onSubmit={(e) => e.preventDefault()}
    >
      <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
        Pod
        <select className={select} value={filter.pod} onChange={(e) => onChange({ pod: e.target.value })}>
          <option value="">All pods</option>
          {pods.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
        Agent program
        <select className={select} value={filter.kind} onChange={(e) => onChange({ kind: e.target.value })}>
          <option value="">All programs</option>
          {Object.entries(AGENT_KIND_LABELS).map(([k, label]) => (
            <option key={k} value={k}>
              {label}
            </option>
          ))}
          <option value="other">Other (SDK, OpenTelemetry)</option>
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
        Agent
        <select className={select} value={filter.agent} onChange={(e) => onChange({ agent: e.target.value })}>
          <option value="">All agents</option>
          {agents.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="flex flex-col gap-1 text-xs text-zinc-700 dark:text-zinc-300">
        Connected by
        <select
          className={select}
          value={filter.person}
          onChange={(e) => onChange({ person: e.target.value })}
        >
          <option value="">Anyone</option>
          {people.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      {active && (
        <button
          type="button"
          className="justify-self-start text-sm underline"
          onClick={() => onChange(NO_FILTER)}
        >
          Clear filters
        </button>
      )}
    </form>
  );
}

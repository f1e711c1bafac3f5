"use client";
// The full record behind a workcell proof, read from the tape event that
// carried it: gates, diff, files (forbidden paths highlighted), risk and follow-ups.
import { Badge } from "../shared/ui";
import { ms, td, th, useEventAt } from "./use-event-at";

type Proof = {
  status: string;
  patch: {
    branch: string;
    base_commit: string;
    head_commit: string;
    diff_stats: { files_changed: number; insertions: number; deletions: number };
    files_modified: string[];
    forbidden_path_violations: string[];
  };
  verification: { gates: Record<string, { passed: boolean; exit_code: number; duration_ms: number }> };
  commands_executed?: { command: string; exit_code: number; duration_ms: number }[];
  confidence?: number;
  risk_classification?: string;
  risk_factors?: string[];
  follow_ups?: { title: string; priority?: string }[];
  metadata: {
    toolchain: string;
    model?: string;
    duration_ms: number;
    tokens_used?: number;
    cost_usd?: number;
  };
};

export function ProofDetails({ podId, seq }: { podId: string; seq: number }) {
  const ev = useEventAt(podId, seq);
  if (ev.isPending) return <p className="text-xs text-zinc-500">Loading the proof…</p>;
  if (ev.isError)
    return (
      <p role="alert" className="text-xs text-red-700">
        {ev.error.message}
      </p>
    );
  const p = (ev.data.body as { proof: Proof }).proof;
  const forbidden = new Set(p.patch.forbidden_path_violations);
  return (
    <div className="grid gap-4 text-xs md:grid-cols-2" data-testid="proof-details">
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Gates</caption>
        <thead>
          <tr>
            <th className={th}>Gate</th>
            <th className={th}>Result</th>
            <th className={th}>Exit</th>
            <th className={th}>Took</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(p.verification.gates).map(([name, g]) => (
            <tr key={name} className={g.passed ? "" : "bg-red-50 dark:bg-red-950/40"}>
              <td className={td}>{name}</td>
              <td className={td}>
                <Badge tone={g.passed ? "green" : "red"}>{g.passed ? "passed" : "failed"}</Badge>
              </td>
              <td className={`${td} tabular-nums`}>{g.exit_code}</td>
              <td className={`${td} tabular-nums`}>{ms(g.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Patch</p>
        <p className="font-mono">
          {p.patch.branch} · {p.patch.base_commit.slice(0, 10)}…{p.patch.head_commit.slice(0, 10)}
        </p>
        <p className="tabular-nums">
          {p.patch.diff_stats.files_changed} files ·{" "}
          <span className="text-emerald-700 dark:text-emerald-400">+{p.patch.diff_stats.insertions}</span>{" "}
          <span className="text-red-700 dark:text-red-400">−{p.patch.diff_stats.deletions}</span>
        </p>
        <ul className="font-mono">
          {p.patch.files_modified.map((f) => (
            <li key={f} className={forbidden.has(f) ? "font-semibold text-red-700 dark:text-red-400" : ""}>
              {f}
              {forbidden.has(f) && " — forbidden path"}
            </li>
          ))}
        </ul>
      </div>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Risk</p>
        <p>
          {p.risk_classification ?? "unclassified"}
          {p.confidence !== undefined && ` · confidence ${Math.round(p.confidence * 100)}%`}
        </p>
        {p.risk_factors?.length ? (
          <ul className="list-disc pl-4">
            {p.risk_factors.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Follow-ups</p>
        {p.follow_ups?.length ? (
          <ul className="list-disc pl-4">
            {p.follow_ups.map((f) => (
              <li key={f.title}>
                {f.title}
                {f.priority && ` (${f.priority})`}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-zinc-500">None</p>
        )}
        <p className="text-zinc-500">
          {p.metadata.toolchain}
          {p.metadata.model && ` · ${p.metadata.model}`} · {ms(p.metadata.duration_ms)}
          {p.metadata.tokens_used !== undefined && ` · ${p.metadata.tokens_used.toLocaleString()} tokens`}
          {p.metadata.cost_usd !== undefined && ` · $${p.metadata.cost_usd}`}
        </p>
      </div>
    </div>
  );
}

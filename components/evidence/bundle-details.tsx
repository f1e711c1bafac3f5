"use client";
// The full record behind an evidence bundle, read from the tape event that
// carried it: command transcript, artifacts and environment.
import { ArtifactRow } from "./artifact-row";
import { ms, td, th, useEventAt } from "./use-event-at";

export function BundleDetails({ podId, seq }: { podId: string; seq: number }) {
  const ev = useEventAt(podId, seq);
  if (ev.isPending) return <p className="text-xs text-zinc-500">Loading the bundle…</p>;
  if (ev.isError)
    return (
      <p role="alert" className="text-xs text-red-700">
        {ev.error.message}
      </p>
    );
  const b = ev.data.body as {
    commands: { command: string; exit_code: number; duration_ms?: number }[];
    artifacts: { path: string; sha256: string; size: number }[];
    env: { commit: string; tools?: Record<string, string> };
  };
  return (
    <div className="space-y-3 text-xs" data-testid="bundle-details">
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Commands</caption>
        <thead>
          <tr>
            <th className={th}>Command</th>
            <th className={th}>Exit</th>
            <th className={th}>Took</th>
          </tr>
        </thead>
        <tbody>
          {b.commands.map((c, i) => (
            <tr key={i} className={c.exit_code === 0 ? "" : "bg-red-50 dark:bg-red-950/40"}>
              <td className={`${td} font-mono break-all`}>{c.command}</td>
              <td
                className={`${td} tabular-nums ${c.exit_code === 0 ? "text-emerald-700 dark:text-emerald-400" : "font-semibold text-red-700 dark:text-red-400"}`}
              >
                {c.exit_code}
              </td>
              <td className={`${td} tabular-nums`}>{ms(c.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Artifacts</caption>
        <thead>
          <tr>
            <th className={th}>Path</th>
            <th className={th}>SHA-256</th>
            <th className={th}>Size</th>
            <th className={th}>Content</th>
          </tr>
        </thead>
        <tbody>
          {b.artifacts.map((a) => (
            <ArtifactRow key={a.path} podId={podId} artifact={a} />
          ))}
        </tbody>
      </table>
      <p>
        <span className="font-semibold uppercase tracking-wide text-zinc-500">Environment</span> commit{" "}
        <span className="font-mono">{b.env.commit}</span>
        {Object.entries(b.env.tools ?? {})
          .map(([k, v]) => ` · ${k} ${v}`)
          .join("")}
      </p>
    </div>
  );
}

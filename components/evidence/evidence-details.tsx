"use client";
// The full record behind an evidence bundle or a proof, read from the tape
// event that carried it: command transcript, artifacts and environment;
// gates, diff, files (forbidden paths highlighted), risk and follow-ups.
import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import type { TapeEvent } from "@/server/wire/events";
import { Badge } from "../shared/ui";
import { getJson } from "../shared/api-client";

function useEventAt(podId: string, seq: number) {
  return useQuery({
    queryKey: ["event", podId, seq],
    staleTime: Infinity, // a stored event never changes
    queryFn: () => getJson<{ events: TapeEvent[] }>(`/api/v1/pods/${encodeURIComponent(podId)}/events?after=${seq - 1}&limit=1`).then((r) => r.events[0]!),
  });
}

const th = "px-2 py-1 text-left font-medium";
const td = "px-2 py-1 align-top";
const ms = (n: number | undefined) => (n === undefined ? "—" : n < 1000 ? `${n} ms` : `${(n / 1000).toFixed(1)} s`);

export function BundleDetails({ podId, seq }: { podId: string; seq: number }) {
  const ev = useEventAt(podId, seq);
  if (ev.isPending) return <p className="text-xs text-zinc-500">Loading the bundle…</p>;
  if (ev.isError) return <p role="alert" className="text-xs text-red-700">{ev.error.message}</p>;
  const b = ev.data.body as { commands: { command: string; exit_code: number; duration_ms?: number }[]; artifacts: { path: string; sha256: string; size: number }[]; env: { commit: string; tools?: Record<string, string> } };
  return (
    <div className="space-y-3 text-xs" data-testid="bundle-details">
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Commands</caption>
        <thead><tr><th className={th}>Command</th><th className={th}>Exit</th><th className={th}>Took</th></tr></thead>
        <tbody>
          {b.commands.map((c, i) => (
            <tr key={i} className={c.exit_code === 0 ? "" : "bg-red-50 dark:bg-red-950/40"}>
              <td className={`${td} font-mono break-all`}>{c.command}</td>
              <td className={`${td} tabular-nums ${c.exit_code === 0 ? "text-emerald-700 dark:text-emerald-400" : "font-semibold text-red-700 dark:text-red-400"}`}>{c.exit_code}</td>
              <td className={`${td} tabular-nums`}>{ms(c.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Artifacts</caption>
        <thead><tr><th className={th}>Path</th><th className={th}>SHA-256</th><th className={th}>Size</th><th className={th}>Content</th></tr></thead>
        <tbody>
          {b.artifacts.map((a) => <ArtifactRow key={a.path} podId={podId} artifact={a} />)}
        </tbody>
      </table>
      <p><span className="font-semibold uppercase tracking-wide text-zinc-500">Environment</span> commit <span className="font-mono">{b.env.commit}</span>{Object.entries(b.env.tools ?? {}).map(([k, v]) => ` · ${k} ${v}`).join("")}</p>
    </div>
  );
}

type Artifact = { path: string; sha256: string; size: number };

/** An artifact of a bundle: verify that the uploaded blob still hashes to it; show a patch as a diff. */
function ArtifactRow({ podId, artifact: a }: { podId: string; artifact: Artifact }) {
  const [state, setState] = useState<string | null>(null);
  const [diff, setDiff] = useState<string | null>(null);
  // Blobs are read through the pod whose evidence names them.
  const blobUrl = `/api/v1/blobs/${a.sha256}`;
  const inPod = `?pod=${encodeURIComponent(podId)}`;
  const verify = async () => {
    setState("checking…");
    const res = await fetch(`${blobUrl}/verify${inPod}`);
    if (res.status === 404) return setState("not uploaded");
    const r = (await res.json()) as { ok: boolean; size: number };
    setState(r.ok && r.size === a.size ? "verified" : r.ok ? `verified, but ${r.size} B (manifest says ${a.size})` : "corrupted");
  };
  const isPatch = /\.(patch|diff)$/.test(a.path);
  const showDiff = async () => {
    const res = await fetch(`${blobUrl}${inPod}`);
    setDiff(res.ok ? await res.text() : "The patch was not uploaded.");
  };
  return (
    <>
      <tr>
        <td className={`${td} font-mono break-all`}>{a.path}</td>
        <td className={`${td} font-mono`} title={a.sha256}>{a.sha256.slice(0, 16)}…</td>
        <td className={`${td} tabular-nums`}>{a.size.toLocaleString()} B</td>
        <td className={td}>
          <button onClick={verify} className="rounded border border-zinc-300 px-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">Verify</button>
          {isPatch && <button onClick={showDiff} className="ml-1 rounded border border-zinc-300 px-1.5 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800">Diff</button>}
          {state && <span className={`ml-1 ${state === "verified" ? "text-emerald-700 dark:text-emerald-400" : state === "checking…" ? "text-zinc-500" : "text-red-700 dark:text-red-400"}`} data-testid="artifact-state">{state}</span>}
        </td>
      </tr>
      {diff !== null && (
        <tr>
          <td colSpan={4}>
            <pre className="max-h-96 overflow-auto rounded bg-zinc-50 p-2 font-mono text-[11px] dark:bg-zinc-950" data-testid="diff">
              {diff.split("\n").map((line, i) => (
                <div key={i} className={line.startsWith("+") && !line.startsWith("+++") ? "bg-emerald-50 text-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-300" : line.startsWith("-") && !line.startsWith("---") ? "bg-red-50 text-red-800 dark:bg-red-950/50 dark:text-red-300" : line.startsWith("@@") ? "text-sky-700 dark:text-sky-400" : ""}>
                  {line || " "}
                </div>
              ))}
            </pre>
          </td>
        </tr>
      )}
    </>
  );
}

type Proof = {
  status: string;
  patch: { branch: string; base_commit: string; head_commit: string; diff_stats: { files_changed: number; insertions: number; deletions: number }; files_modified: string[]; forbidden_path_violations: string[] };
  verification: { gates: Record<string, { passed: boolean; exit_code: number; duration_ms: number }> };
  commands_executed?: { command: string; exit_code: number; duration_ms: number }[];
  confidence?: number;
  risk_classification?: string;
  risk_factors?: string[];
  follow_ups?: { title: string; priority?: string }[];
  metadata: { toolchain: string; model?: string; duration_ms: number; tokens_used?: number; cost_usd?: number };
};

export function ProofDetails({ podId, seq }: { podId: string; seq: number }) {
  const ev = useEventAt(podId, seq);
  if (ev.isPending) return <p className="text-xs text-zinc-500">Loading the proof…</p>;
  if (ev.isError) return <p role="alert" className="text-xs text-red-700">{ev.error.message}</p>;
  const p = (ev.data.body as { proof: Proof }).proof;
  const forbidden = new Set(p.patch.forbidden_path_violations);
  return (
    <div className="grid gap-4 text-xs md:grid-cols-2" data-testid="proof-details">
      <table className="w-full">
        <caption className="text-left font-semibold uppercase tracking-wide text-zinc-500">Gates</caption>
        <thead><tr><th className={th}>Gate</th><th className={th}>Result</th><th className={th}>Exit</th><th className={th}>Took</th></tr></thead>
        <tbody>
          {Object.entries(p.verification.gates).map(([name, g]) => (
            <tr key={name} className={g.passed ? "" : "bg-red-50 dark:bg-red-950/40"}>
              <td className={td}>{name}</td>
              <td className={td}><Badge tone={g.passed ? "green" : "red"}>{g.passed ? "passed" : "failed"}</Badge></td>
              <td className={`${td} tabular-nums`}>{g.exit_code}</td>
              <td className={`${td} tabular-nums`}>{ms(g.duration_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Patch</p>
        <p className="font-mono">{p.patch.branch} · {p.patch.base_commit.slice(0, 10)}…{p.patch.head_commit.slice(0, 10)}</p>
        <p className="tabular-nums">
          {p.patch.diff_stats.files_changed} files · <span className="text-emerald-700 dark:text-emerald-400">+{p.patch.diff_stats.insertions}</span> <span className="text-red-700 dark:text-red-400">−{p.patch.diff_stats.deletions}</span>
        </p>
        <ul className="font-mono">
          {p.patch.files_modified.map((f) => (
            <li key={f} className={forbidden.has(f) ? "font-semibold text-red-700 dark:text-red-400" : ""}>{f}{forbidden.has(f) && " — forbidden path"}</li>
          ))}
        </ul>
      </div>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Risk</p>
        <p>{p.risk_classification ?? "unclassified"}{p.confidence !== undefined && ` · confidence ${Math.round(p.confidence * 100)}%`}</p>
        {p.risk_factors?.length ? <ul className="list-disc pl-4">{p.risk_factors.map((r) => <li key={r}>{r}</li>)}</ul> : null}
      </div>
      <div className="space-y-1">
        <p className="font-semibold uppercase tracking-wide text-zinc-500">Follow-ups</p>
        {p.follow_ups?.length ? <ul className="list-disc pl-4">{p.follow_ups.map((f) => <li key={f.title}>{f.title}{f.priority && ` (${f.priority})`}</li>)}</ul> : <p className="text-zinc-500">None</p>}
        <p className="text-zinc-500">{p.metadata.toolchain}{p.metadata.model && ` · ${p.metadata.model}`} · {ms(p.metadata.duration_ms)}{p.metadata.tokens_used !== undefined && ` · ${p.metadata.tokens_used.toLocaleString()} tokens`}{p.metadata.cost_usd !== undefined && ` · $${p.metadata.cost_usd}`}</p>
      </div>
    </div>
  );
}

"use client";
// The pod's other views: members and handoffs, runs, contracted jobs, evidence.
import type { PodStateView } from "@/server/pods/present-pod-state";
import { Fragment, useState } from "react";
import { RelativeTime } from "../shared/relative-time";
import { BundleDetails, ProofDetails } from "../evidence/evidence-details";
import { Badge, Card, Empty, Section, useLimited } from "../shared/ui";

export function MembersView({ state }: { state: PodStateView }) {
  const history = [...state.handoffs.map((h) => ({ seq: h.seq, at: h.at, text: `${h.from} → ${h.to}: ${h.reason}` })), ...state.roleHistory.map((r) => ({ seq: r.seq, at: r.at, text: `${r.memberId} ${r.action.replace("_", " ")} ${r.role}` }))].sort((a, b) => b.seq - a.seq);
  const { shown, more } = useLimited(history, 20);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <Section title="Members" aside={state.activeAgent && <Badge tone="green">active: {state.activeAgent}</Badge>}>
        {state.members.length === 0 ? (
          <Empty>No members yet.</Empty>
        ) : (
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900" data-testid="members">
            {state.members.map((m) => (
              <li key={m.memberId} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                <span className="font-medium">{m.displayName}</span>
                <span className="font-mono text-xs text-zinc-500">{m.memberId}</span>
                <Badge tone={m.kind === "human" ? "violet" : "zinc"}>{m.kind}</Badge>
                {m.access && <Badge tone="amber">{m.access}</Badge>}
                {m.roles.map((r) => <Badge key={r} tone="sky">{r}</Badge>)}
                {state.activeAgent === m.memberId && <Badge tone="green">active</Badge>}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Handoffs and role changes">
        {history.length === 0 ? (
          <Empty>No handoffs yet.</Empty>
        ) : (
          <ol className="space-y-1 text-sm">
            {shown.map((x, i) => (
                <li key={i} className="flex gap-2">
                  <a href={`?tab=tape#seq-${x.seq}`} className="font-mono text-xs text-zinc-500 hover:underline">#{x.seq}</a>
                  <span className="min-w-0 break-words">{x.text}</span>
                  <span className="ml-auto shrink-0 text-xs text-zinc-500"><RelativeTime iso={x.at} /></span>
                </li>
              ))}
            {more}
          </ol>
        )}
      </Section>
    </div>
  );
}

export function RunsView({ state }: { state: PodStateView }) {
  if (state.runs.length === 0) return <Empty>No runs yet. Agents start one with run.started.</Empty>;
  return (
    <ul className="space-y-2" data-testid="runs">
      {[...state.runs].reverse().map((r) => (
        <Card key={r.runId}>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-mono font-medium">{r.runId}</span>
            <Badge tone={r.status === "committed" ? "green" : r.status === "discarded" ? "red" : "sky"}>{r.status}</Badge>
            <span className="text-zinc-500">on {r.workItemId} · {r.mood} · by {r.startedBy}</span>
            <span className="ml-auto text-xs text-zinc-500"><RelativeTime iso={r.at} /></span>
          </div>
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
            self {r.selfVerified === null ? "—" : r.selfVerified ? "passed" : "failed"} · director {r.directorVerified === null ? "—" : r.directorVerified ? "passed" : "failed"}
            {r.commit && <> · commit <span className="font-mono">{r.commit}</span></>}
            {r.discardReason && <> · discarded: {r.discardReason}</>}
            {r.noteSeqs.length > 0 && <> · notes {r.noteSeqs.map((s) => <a key={s} href={`?tab=tape#seq-${s}`} className="ml-1 font-mono hover:underline">#{s}</a>)}</>}
          </p>
        </Card>
      ))}
    </ul>
  );
}

export function JobsView({ state }: { state: PodStateView }) {
  if (state.jobs.length === 0) return <Empty>No contracted jobs on this pod.</Empty>;
  return (
    <ul className="space-y-2" data-testid="jobs">
      {[...state.jobs].reverse().map((j) => (
        <Card key={j.jobId}>
          <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="job" data-job={j.jobId}>
            <span className="font-medium">{j.scope}</span>
            <Badge tone={j.status === "settled" ? "green" : j.status === "rejected" ? "red" : "sky"}>{j.status}</Badge>
            <Badge tone={j.escrow === "released" ? "green" : j.escrow === "refunded" ? "amber" : "zinc"} title="escrow">escrow:{"\u00a0"}<span data-testid="escrow">{j.escrow}</span></Badge>
            <span className="ml-auto text-sm tabular-nums">{j.settlement.amount} {j.settlement.currency}</span>
          </div>
          <div className="mt-2 grid gap-3 text-xs text-zinc-600 sm:grid-cols-2 dark:text-zinc-400">
            <div>
              <p className="font-semibold uppercase tracking-wide">Acceptance tests</p>
              <ul className="list-disc pl-4">{j.acceptanceTests.map((t) => <li key={t}>{t}</li>)}</ul>
            </div>
            <div>
              <p className="font-semibold uppercase tracking-wide">Constraints and terms</p>
              <ul className="list-disc pl-4">{[...j.constraints, j.settlement.terms].filter(Boolean).map((t) => <li key={t}>{t}</li>)}</ul>
            </div>
          </div>
        </Card>
      ))}
    </ul>
  );
}

export function EvidenceView({ podId, state }: { podId: string; state: PodStateView }) {
  const [open, setOpen] = useState<string | null>(null);
  const toggle = (key: string) => setOpen((o) => (o === key ? null : key));
  const proofs = useLimited([...state.workcells].reverse(), 15);
  const bundles = useLimited([...state.evidence].reverse(), 20);
  return (
    <div className="space-y-6">
      <Section title="Proofs (workcells)">
        {state.workcells.length === 0 ? (
          <Empty>No workcells yet.</Empty>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800">
            <table className="w-full text-left text-sm" data-testid="proofs">
              <thead className="bg-zinc-50 text-xs uppercase text-zinc-500 dark:bg-zinc-900">
                <tr><th className="px-3 py-2">Workcell</th><th className="px-3 py-2">Task</th><th className="px-3 py-2">Status</th><th className="px-3 py-2">Gates</th><th className="px-3 py-2">Diff</th><th className="px-3 py-2">Risk</th></tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {proofs.shown.map((w) => (
                  <Fragment key={w.workcellId}>
                  <tr onClick={() => w.proof && toggle(`wc:${w.workcellId}`)} className={w.proof ? "cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50" : ""} aria-expanded={open === `wc:${w.workcellId}`}>
                    <td className="px-3 py-2 font-mono text-xs">{w.workcellId}</td>
                    <td className="px-3 py-2">{w.taskId ?? w.issueId}</td>
                    <td className="px-3 py-2">{w.proof ? w.proof.status : <span className="text-zinc-500">open</span>}</td>
                    <td className="px-3 py-2">
                      {w.proof ? (w.proof.failingGates.length ? <Badge tone="red">failed: {w.proof.failingGates.join(", ")}</Badge> : <Badge tone="green">all passed</Badge>) : "—"}
                      {w.proof?.forbiddenPathViolations.map((f) => <Badge key={f} tone="red">forbidden: {f}</Badge>)}
                    </td>
                    <td className="px-3 py-2 tabular-nums">{w.proof ? <span className={w.proof.overDiffBudget ? "text-red-700 dark:text-red-400" : ""}>{w.proof.diffLines} lines{w.maxDiffLines ? ` / ${w.maxDiffLines}` : ""}</span> : "—"}</td>
                    <td className="px-3 py-2">{w.proof?.risk ?? "—"}{w.proof?.confidence != null && <span className="text-zinc-500"> · {Math.round(w.proof.confidence * 100)}%</span>}</td>
                  </tr>
                  {open === `wc:${w.workcellId}` && w.proof && (
                    <tr><td colSpan={6} className="bg-zinc-50 px-3 py-3 dark:bg-zinc-950"><ProofDetails podId={podId} seq={w.proof.seq} /></td></tr>
                  )}
                  </Fragment>
                ))}
              </tbody>
            </table>
            {proofs.more}
          </div>
        )}
      </Section>
      <Section title="Evidence bundles">
        {state.evidence.length === 0 ? (
          <Empty>No evidence yet.</Empty>
        ) : (
          <ul className="grid gap-2 md:grid-cols-2" data-testid="evidence">
            {bundles.shown.map((e) => (
              <Card key={e.bundleId}>
                <div className="flex flex-wrap items-center gap-2 text-sm">
                  <span className="font-mono font-medium">{e.bundleId}</span>
                  <Badge tone={e.passed ? "green" : "red"}>{e.passed ? "all commands passed" : `${e.failedCommands} failed`}</Badge>
                  <a href={`?tab=tape#seq-${e.seq}`} className="ml-auto font-mono text-xs text-zinc-500 hover:underline">#{e.seq}</a>
                </div>
                <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                  {e.commandCount} commands · {e.artifactCount} artifacts · commit <span className="font-mono">{e.env.commit}</span> · by {e.by}
                </p>
                <p className="mt-1 truncate font-mono text-[11px] text-zinc-500" title={e.manifestHash}>manifest {e.manifestHash}</p>
                <button onClick={() => toggle(`ev:${e.bundleId}`)} className="mt-1 text-xs text-zinc-600 hover:underline dark:text-zinc-400" aria-expanded={open === `ev:${e.bundleId}`}>
                  {open === `ev:${e.bundleId}` ? "Hide transcript" : "Show transcript and artifacts"}
                </button>
                {open === `ev:${e.bundleId}` && <BundleDetails podId={podId} seq={e.seq} />}
                {e.links.tasks.length + e.links.jobs.length + e.links.decisions.length > 0 && (
                  <p className="mt-1 text-xs text-zinc-500">linked: {[...e.links.tasks.map((t) => `task ${t}`), ...e.links.jobs.map((j) => `job ${j}`), ...e.links.decisions.map((d) => `decision #${d}`)].join(", ")}</p>
                )}
              </Card>
            ))}
            <li className="md:col-span-2">{bundles.more}</li>
          </ul>
        )}
      </Section>
    </div>
  );
}

"use client";
// The pod's evidence: workcell proofs and evidence bundles, each opening to its full record.
import type { PodStateView } from "@/server/wire/views";
import { Fragment, useState } from "react";
import { BundleDetails } from "./bundle-details";
import { ProofDetails } from "./proof-details";
import { Badge, Card, Empty, Section, useLimited } from "../shared/ui";

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
          <div
            className="overflow-x-auto rounded-lg border border-zinc-200 dark:border-zinc-800"
            tabIndex={0}
            role="region"
            aria-label="Proofs table (scrolls sideways)"
          >
            <table className="w-full text-left text-sm" data-testid="proofs">
              <thead className="bg-zinc-50 text-xs uppercase text-zinc-500 dark:bg-zinc-900">
                <tr>
                  <th className="px-3 py-2">Workcell</th>
                  <th className="px-3 py-2">Task</th>
                  <th className="px-3 py-2">Status</th>
                  <th className="px-3 py-2">Gates</th>
                  <th className="px-3 py-2">Diff</th>
                  <th className="px-3 py-2">Risk</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
                {proofs.shown.map((w) => (
                  <Fragment key={w.workcellId}>
                    <tr
                      onClick={() => w.proof && toggle(`wc:${w.workcellId}`)}
                      className={w.proof ? "cursor-pointer hover:bg-zinc-50 dark:hover:bg-zinc-800/50" : ""}
                    >
                      <td className="px-3 py-2 font-mono text-xs">
                        {w.proof ? (
                          <button
                            onClick={(ev) => {
                              ev.stopPropagation();
                              toggle(`wc:${w.workcellId}`);
                            }}
                            aria-expanded={open === `wc:${w.workcellId}`}
                            className="text-left hover:underline"
                            title="Show the proof"
                          >
                            {w.workcellId}
                          </button>
                        ) : (
                          w.workcellId
                        )}
                      </td>
                      <td className="px-3 py-2">{w.taskId ?? w.issueId}</td>
                      <td className="px-3 py-2">
                        {w.proof ? w.proof.status : <span className="text-zinc-500">open</span>}
                      </td>
                      <td className="px-3 py-2">
                        {w.proof ? (
                          w.proof.failingGates.length ? (
                            <Badge tone="red">failed: {w.proof.failingGates.join(", ")}</Badge>
                          ) : (
                            <Badge tone="green">all passed</Badge>
                          )
                        ) : (
                          "—"
                        )}
                        {w.proof?.forbiddenPathViolations.map((f) => (
                          <Badge key={f} tone="red">
                            forbidden: {f}
                          </Badge>
                        ))}
                      </td>
                      <td className="px-3 py-2 tabular-nums">
                        {w.proof ? (
                          <span
                            className={`whitespace-nowrap ${w.proof.overDiffBudget ? "text-red-700 dark:text-red-400" : ""}`}
                          >
                            {w.proof.diffLines} lines{w.maxDiffLines ? ` / ${w.maxDiffLines}` : ""}
                          </span>
                        ) : (
                          "—"
                        )}
                      </td>
                      <td className="px-3 py-2">
                        {w.proof?.risk ?? "—"}
                        {w.proof?.confidence != null && (
                          <span className="text-zinc-500"> · {Math.round(w.proof.confidence * 100)}%</span>
                        )}
                      </td>
                    </tr>
                    {open === `wc:${w.workcellId}` && w.proof && (
                      <tr>
                        <td colSpan={6} className="bg-zinc-50 px-3 py-3 dark:bg-zinc-950">
                          <ProofDetails podId={podId} seq={w.proof.seq} />
                        </td>
                      </tr>
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
              <li key={e.bundleId} className="min-w-0">
                <Card>
                  <div className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="min-w-0 font-mono font-medium break-all">{e.bundleId}</span>
                    <Badge tone={e.passed ? "green" : "red"}>
                      {e.passed ? "all commands passed" : `${e.failedCommands} failed`}
                    </Badge>
                    <a
                      href={`?tab=tape#seq-${e.seq}`}
                      className="ml-auto font-mono text-xs text-zinc-500 hover:underline"
                    >
                      #{e.seq}
                    </a>
                  </div>
                  <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
                    {e.commandCount} commands · {e.artifactCount} artifacts · commit{" "}
                    <span className="font-mono break-all">{e.env.commit}</span> · by {e.by}
                  </p>
                  <p className="mt-1 truncate font-mono text-[11px] text-zinc-500" title={e.manifestHash}>
                    manifest {e.manifestHash}
                  </p>
                  <button
                    onClick={() => toggle(`ev:${e.bundleId}`)}
                    className="mt-1 text-xs text-zinc-600 hover:underline dark:text-zinc-400"
                    aria-expanded={open === `ev:${e.bundleId}`}
                  >
                    {open === `ev:${e.bundleId}` ? "Hide transcript" : "Show transcript and artifacts"}
                  </button>
                  {open === `ev:${e.bundleId}` && <BundleDetails podId={podId} seq={e.seq} />}
                  {e.links.tasks.length + e.links.jobs.length + e.links.decisions.length > 0 && (
                    <p className="mt-1 text-xs text-zinc-500">
                      linked:{" "}
                      {[
                        ...e.links.tasks.map((t) => `task ${t}`),
                        ...e.links.jobs.map((j) => `job ${j}`),
                        ...e.links.decisions.map((d) => `decision #${d}`),
                      ].join(", ")}
                    </p>
                  )}
                </Card>
              </li>
            ))}
            {bundles.more && <li className="md:col-span-2">{bundles.more}</li>}
          </ul>
        )}
      </Section>
    </div>
  );
}

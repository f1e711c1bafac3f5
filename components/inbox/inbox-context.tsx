"use client";
// What backs a decision, under the inbox card's title: the review, evidence and
// proof gates of a task; the settlement and acceptance tests of a job; the
// kind, task, options and evidence of an escalation.
import Link from "next/link";
import type { InboxContext, InboxEvidence, InboxProof } from "@/server/wire/views";
import { Badge } from "../shared/ui";

const label = "text-xs font-medium text-zinc-600 dark:text-zinc-400";
const link = "text-xs font-medium text-sky-800 underline-offset-2 hover:underline dark:text-sky-300";

function EvidenceList({ podId, evidence }: { podId: string; evidence: InboxEvidence[] }) {
  if (!evidence.length) return <p className={label}>No evidence linked.</p>;
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Evidence">
      {evidence.map((e) => (
        <li key={e.bundleId} className="min-w-0" data-testid="inbox-evidence" data-passed={e.passed}>
          <Link
            href={`/pods/${podId}?tab=tape&seq=${e.seq}`}
            className="block max-w-full truncate"
            title={`evidence ${e.bundleId} on the tape`}
          >
            <Badge tone={e.passed ? "green" : "red"}>
              {e.passed ? "✓" : "✗"} evidence {e.bundleId}:{" "}
              {e.passed
                ? `${e.commandCount} command(s) passed`
                : `${e.failedCommands} of ${e.commandCount} failed`}
            </Badge>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function ProofGates({ proof }: { proof: InboxProof }) {
  return (
    <div className="space-y-1" data-testid="inbox-proof" data-workcell={proof.workcellId}>
      <p className={`${label} break-all`}>
        proof of {proof.workcellId}: {proof.status ?? "not submitted yet"}
      </p>
      <ul className="flex flex-wrap gap-1" aria-label={`Gates of ${proof.workcellId}`}>
        {proof.gates.map((g) => (
          <li key={g.name} data-testid="inbox-gate" data-gate={g.name} data-passed={String(g.passed)}>
            <Badge tone={g.passed === null ? "zinc" : g.passed ? "green" : "red"}>
              {g.name} {g.passed === null ? "pending" : g.passed ? "passed" : "failed"}
            </Badge>
          </li>
        ))}
        {proof.forbiddenPathViolations.map((f) => (
          <li key={f}>
            <Badge tone="red">touches forbidden {f}</Badge>
          </li>
        ))}
        {proof.overDiffBudget && (
          <li>
            <Badge tone="red">diff over budget</Badge>
          </li>
        )}
      </ul>
    </div>
  );
}

const money = (amount: number, currency: string) => {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
};
export const formatMoney = money;

export function InboxContextView({ podId, context }: { podId: string; context: InboxContext | null }) {
  if (!context) return null;
  const box = "space-y-2 rounded-md bg-zinc-50 p-2 text-sm dark:bg-zinc-950/60";
  if (context.kind === "task") {
    const r = context.review;
    return (
      <div className={box} data-testid="inbox-context">
        {r ? (
          <p data-testid="inbox-review">
            <span className={label}>review by {r.by}: </span>
            <Badge tone={r.verdict === "approve" ? "green" : r.verdict === "reject" ? "red" : "amber"}>
              {r.verdict.replace("_", " ")}
            </Badge>
            {r.comments && (
              <span className="mt-1 block whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300">
                “{r.comments}”
              </span>
            )}
          </p>
        ) : (
          <p className={label}>No review yet.</p>
        )}
        <EvidenceList podId={podId} evidence={context.evidence} />
        {context.proofs.map((p) => (
          <ProofGates key={p.workcellId} proof={p} />
        ))}
        <p className="flex flex-wrap gap-3">
          <Link
            href={`/pods/${podId}?tab=board&task=${encodeURIComponent(context.taskId)}`}
            className={link}
            data-testid="inbox-task-link"
          >
            Task {context.taskId} on the board
          </Link>
          {r && (
            <Link href={`/pods/${podId}?tab=tape&seq=${r.seq}`} className={link}>
              The review on the tape
            </Link>
          )}
        </p>
      </div>
    );
  }
  if (context.kind === "job") {
    const s = context.settlement;
    return (
      <div className={box} data-testid="inbox-context">
        <p>
          <span className="font-semibold tabular-nums" data-testid="inbox-amount">
            {money(s.amount, s.currency)}
          </span>
          <span className="text-zinc-700 dark:text-zinc-300"> · {s.terms}</span>{" "}
          <Badge tone="sky">escrow {context.escrow}</Badge>
        </p>
        {context.acceptanceTests.length > 0 && (
          <div>
            <p className={label}>Acceptance tests</p>
            <ul className="list-disc pl-5 break-words" data-testid="inbox-acceptance-tests">
              {context.acceptanceTests.map((t, i) => (
                <li key={i}>{t}</li>
              ))}
            </ul>
          </div>
        )}
        {context.constraints.length > 0 && (
          <p className="break-words">
            <span className={label}>Constraints: </span>
            {context.constraints.join("; ")}
          </p>
        )}
        <EvidenceList podId={podId} evidence={context.evidence} />
        <Link href={`/pods/${podId}?tab=job`} className={link}>
          Job {context.jobId}
        </Link>
      </div>
    );
  }
  // A held tool call's card shows its own (held-call-panel.tsx), and so does a crossed budget's (budget-crossed-panel.tsx).
  if (context.kind === "tool" || context.kind === "budget") return null;
  if (context.kind === "escalation") {
    return (
      <div className={box} data-testid="inbox-context">
        <p>
          <Badge tone="amber">{context.escalationKind.replaceAll("_", " ")}</Badge>{" "}
          <span className={label}>asked by {context.askedBy}</span>
        </p>
        {context.options.length > 0 && (
          <p className="break-words">
            <span className={label}>Options: </span>
            {context.options.join(" · ")}
          </p>
        )}
        <EvidenceList podId={podId} evidence={context.evidence} />
        {context.task && (
          <Link
            href={`/pods/${podId}?tab=board&task=${encodeURIComponent(context.task.taskId)}`}
            className={link}
            data-testid="inbox-task-link"
          >
            Task {context.task.taskId}: {context.task.description}
          </Link>
        )}
      </div>
    );
  }
  return (
    <div className={box} data-testid="inbox-context">
      {context.blocks.map((b, i) => (
        <p key={i} className="break-words">
          <span className={label}>
            {b.role.replace("_", " ")} {b.by}:{" "}
          </span>
          {b.rationale || "no rationale given"}
        </p>
      ))}
    </div>
  );
}

// Contracting (docs/protocol/contracting.md): a Job is posted, funded into escrow, delivered
// with evidence, accepted or rejected by decision, and settled exactly once.
import type { Job } from "./pod-state";
import { at, conflictRule, requireEvidence, requireJob, type R, type Reducers, union, with_ } from "./rules";
import { linkEvidence } from "./reduce-evidence";
import { dueFrom, requireDefaultAuthority } from "./deadlines";

const posted: R<"job.posted"> = (s, e) => {
  if (s.jobs[e.body.jobId]) throw conflictRule("job_exists", `job ${e.body.jobId} already exists`);
  const job: Job = {
    ...at(e),
    ...e.body,
    postedBy: e.actor,
    status: "posted",
    escrow: "unfunded",
    evidenceIds: [],
  };
  return { ...s, jobs: with_(s.jobs, job.jobId, job) };
};

const funded: R<"job.funded"> = (s, e) => {
  const job = requireJob(s, e.body.jobId);
  if (job.escrow !== "unfunded")
    throw conflictRule("escrow_state", `job ${job.jobId} escrow is already ${job.escrow}`);
  return { ...s, jobs: with_(s.jobs, job.jobId, { ...job, status: "funded", escrow: "funded" }) };
};

const delivered: R<"job.delivered"> = (s, e) => {
  const job = requireJob(s, e.body.jobId);
  if (job.status !== "funded")
    throw conflictRule(
      "job_not_funded",
      `job ${job.jobId} is ${job.status}; a job is delivered once, after funding`,
    );
  requireEvidence(s, e.body.evidenceIds);
  const key = `job:${job.jobId}`;
  const due = dueFrom(e.body.deadline, e.receivedAt);
  requireDefaultAuthority(s, e.actor, e.body.deadline, "job");
  const item = {
    ...at(e),
    id: key,
    kind: "job_acceptance" as const,
    title: `Accept delivery of job ${job.jobId}: ${job.scope}`,
    subject: { kind: "job", id: job.jobId },
    ...(due ? { due } : {}),
  };
  const next = {
    ...job,
    status: "delivered" as const,
    evidenceIds: union(job.evidenceIds, e.body.evidenceIds),
  };
  return linkEvidence(
    { ...s, jobs: with_(s.jobs, job.jobId, next), inbox: with_(s.inbox, key, item) },
    e.body.evidenceIds,
    "jobs",
    job.jobId,
  );
};

/** Escrow moves funded → released (after acceptance) or funded → refunded (after rejection), once. */
const settled: R<"job.settled"> = (s, e) => {
  const job = requireJob(s, e.body.jobId);
  if (job.escrow !== "funded")
    throw conflictRule(
      "escrow_state",
      `job ${job.jobId} escrow is ${job.escrow}; only funded escrow settles, once`,
    );
  const needs = e.body.outcome === "released" ? "accepted" : "rejected";
  if (job.status !== needs)
    throw conflictRule(
      "job_not_decided",
      `escrow is ${e.body.outcome} only after the job is ${needs} (it is ${job.status})`,
    );
  return { ...s, jobs: with_(s.jobs, job.jobId, { ...job, status: "settled", escrow: e.body.outcome }) };
};

export const jobReducers = {
  "job.posted": posted,
  "job.funded": funded,
  "job.delivered": delivered,
  "job.settled": settled,
} satisfies Partial<Reducers>;

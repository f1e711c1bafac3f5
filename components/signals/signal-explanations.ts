// What each figure of the signals means, in plain words, and how it is counted: one table for the
// pod's Signals tab and the Agents page (every column of signal-columns.ts names its entry here,
// so a figure never reaches a person without its explanation). The counting follows the fold in
// server/domain/signals/ (step-task-signals.ts, step-team-signals.ts, step-usage-signals.ts).

export type Explanation = { meaning: string; counted: string };

export const EXPLANATIONS = {
  agent: {
    meaning: "The agent, by its display name; its member id and roles are in the row's title.",
    counted: "Each agent member with anything on the tape in the period has a row.",
  },
  approval: {
    meaning: "How much of the work this agent implemented was approved when it was decided.",
    counted:
      "Tasks it implemented decided approved, of those decided approved or rejected (by a person, the chair or a deadline's default).",
  },
  rounds: {
    meaning: "How many rounds of review its tasks needed before they were approved.",
    counted: "A round is each time the task was put up for review; the mean over its approved tasks.",
  },
  evidence: {
    meaning: "How often the evidence it submitted passed its checks.",
    counted:
      "Evidence bundles that passed, of all it submitted; the counts also give its workcell proofs with a failing gate.",
  },
  reversals: {
    meaning: "Times a reviewer approved this agent's task and the decision then rejected it.",
    counted:
      "One per task it implemented that was rejected after at least one approving review in the same round.",
  },
  reviews: {
    meaning: "How many reviews this agent gave as a reviewer.",
    counted: "Every review it posted: approve, changes requested or reject.",
  },
  rigor: {
    meaning: "How often its reviews found something to fix.",
    counted: "Reviews that asked for changes or rejected, of all its reviews.",
  },
  overturned: {
    meaning: "How often a later review or the decision went against its review.",
    counted:
      "Its approvals contradicted by another reviewer or by a rejecting decision on the same round, of all its reviews.",
  },
  "review-time": {
    meaning: "How long it took to review once asked.",
    counted:
      "From the review request to its review, by the server's receipt times; the mean over its reviews.",
  },
  cadence: {
    meaning: "Whether it checked in as often as the pod's cadence asks.",
    counted: "Checkpoints that came within the pod's cadence, of all its checkpoints (on time and late).",
  },
  stale: {
    meaning: "Times it went quiet for longer than the pod's cadence.",
    counted: "Each stretch with no checkpoint within the cadence counts once, however long it lasted.",
  },
  escalations: {
    meaning: "Questions it escalated to a person.",
    counted:
      "Every escalation it raised; the counts give how they ended and the handoffs it gave and received.",
  },
  answered: {
    meaning: "How many of its escalations a person answered before their deadline.",
    counted:
      "Escalations answered by a person, of those ended (answered, or expired to the deadline's default).",
  },
  jobs: {
    meaning: "How its delivered jobs fared with the principal who asked for them.",
    counted: "Jobs it delivered that were accepted, of those accepted or rejected; a rejection is a dispute.",
  },
  tokens: {
    meaning: "The model tokens its sessions used.",
    counted: "Input, output and cache tokens from its usage reports, summed over every model.",
  },
  cost: {
    meaning: "What its model use cost.",
    counted:
      "The cost its usage reports carry, summed (a report without a cost adds nothing); the counts split it by model.",
  },
  tools: {
    meaning: "How many tools it called.",
    counted:
      "Tool calls that started (a call a gate denied is not one); the counts give each tool and its failures.",
  },
  decisions: {
    meaning:
      "The calls that settled work in review: a task approved or rejected, a job accepted or rejected, a plan approved or blocked.",
    counted:
      "Each decision in the period, by who took it: the chair, an approver or a deadline's default (the pod keeps its newest 200).",
  },
  trend: {
    meaning: "How its spending moved day by day.",
    counted: "Its cost per UTC day, from its first day of work to its last; a day without usage is zero.",
  },
} as const satisfies Record<string, Explanation>;

export type ExplainedId = keyof typeof EXPLANATIONS;

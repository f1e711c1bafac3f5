// The plan (seed 003 plan tools), workcells and proofs (seed 004), and runs (seed 002).
import { UsageError } from "../sdk/errors";
import type { PlanJson } from "../sdk/pod-agent";
import { keyValues, list, OPTIONS, recorded, str, type Command } from "./command";
import { readJsonFile } from "./read-json-file";

const need = (v: unknown, flag: string) => str(v) ?? fail(`--${flag} is required`);
const fail = (m: string): never => {
  throw new UsageError(m);
};

export const planCommands: Command[] = [
  {
    name: "plan read",
    summary: "Print the plan as plan.json (plan_read)",
    run: async ({ agent }) => {
      const plan = await agent().readPlan();
      const text = plan.tasks.length ? plan.tasks.map((t) => `${t.task_id.padEnd(14)} ${t.status.padEnd(12)} ${t.description}`).join("\n") : "the plan has no tasks yet";
      return { text, json: plan };
    },
  },
  {
    name: "plan add",
    summary: "Add a pending task (plan_add_task)",
    args: "<description>",
    arity: [1, 1],
    options: {
      id: { type: "string", description: "the task id (default: task_001, task_002…)", value: "ID" },
      "depends-on": { type: "string", multiple: true, description: "a task it waits for (repeatable)", value: "ID" },
      meta: { type: "string", multiple: true, description: "metadata (repeatable)", value: "KEY=VALUE" },
    },
    run: async ({ values: v, positionals: [description], agent }) => {
      const r = await agent().addTask({ description: description!, taskId: str(v.id), dependsOn: list(v["depends-on"]), metadata: keyValues(list(v.meta), "meta") });
      return { text: `task ${r.taskId} added as #${r.seq}`, json: r };
    },
  },
  {
    name: "plan update",
    summary: "Update a task's status and metadata (plan_update_task)",
    args: "<taskId>",
    arity: [1, 1],
    options: {
      status: { type: "string", description: "pending | in_progress | blocked | completed | cancelled …", value: "STATUS" },
      meta: { type: "string", multiple: true, description: "metadata to merge (repeatable)", value: "KEY=VALUE" },
      assignee: { type: "string", description: "who implements it", value: "MEMBER" },
      "blocked-reason": { type: "string", description: "why it is blocked", value: "TEXT" },
    },
    run: async ({ values: v, positionals: [taskId], agent }) => {
      const meta = keyValues(list(v.meta), "meta");
      const body = { taskId: taskId!, status: str(v.status) as "pending" | undefined, assignee: str(v.assignee), blockedReason: str(v["blocked-reason"]), ...(Object.keys(meta).length ? { metadata: meta } : {}) };
      return recorded(`update of ${taskId}`, await agent().updateTask(body, { taskId }));
    },
  },
  {
    name: "plan import",
    summary: "Import a plan.json (seed 003 §1.1) as written",
    args: "<plan.json>",
    arity: [1, 1],
    run: async ({ positionals: [file], agent }) => {
      const r = await agent().importPlan(readJsonFile(file!) as PlanJson);
      return { text: `plan imported as #${r.event.seq}`, json: r };
    },
  },
  {
    name: "workcell open",
    summary: "Open a workcell from a task manifest (seed 004)",
    args: "<manifest.json>",
    arity: [1, 1],
    run: async ({ positionals: [file], agent }) => {
      const r = await agent().openWorkcell(readJsonFile(file!) as never);
      return { text: `workcell ${r.workcellId} opened as #${r.event.seq}`, json: r };
    },
  },
  {
    name: "proof submit",
    summary: "Submit a workcell's proof.json (seed 004)",
    args: "<proof.json>",
    arity: [1, 1],
    run: async ({ positionals: [file], agent }) => {
      const r = await agent().submitProof(readJsonFile(file!) as never);
      return { text: `proof for ${r.workcellId} recorded as #${r.event.seq}`, json: r };
    },
  },
  {
    name: "run start",
    summary: "Start a run on a work item (seed 002)",
    options: { run: OPTIONS.runId, task: { type: "string", description: "the work item (task) id", value: "ID" }, mood: { type: "string", description: "e.g. CURIOUS, SKEPTICAL (default FOCUSED)", value: "MOOD" } },
    run: async ({ values: v, agent }) => recorded(`run ${v.run}`, await agent().startRun({ runId: need(v.run, "run"), workItemId: need(v.task, "task"), mood: str(v.mood) ?? "FOCUSED" })),
  },
  {
    name: "run verify",
    summary: "Record a run's verification, by self or director",
    options: {
      run: OPTIONS.runId,
      by: { type: "string", description: "self | director (default self)", value: "WHO" },
      failed: { type: "boolean", description: "verification failed (default: passed)" },
      check: { type: "string", multiple: true, description: "a check and its outcome, e.g. unit=pass lint=fail (repeatable)", value: "NAME=pass|fail" },
    },
    run: async ({ values: v, agent }) => {
      const checks = Object.entries(keyValues(list(v.check), "check", false)).map(([name, r]) => {
        if (r !== "pass" && r !== "fail") throw new UsageError(`--check ${name}= takes pass or fail, not "${r}"`);
        return { name, passed: r === "pass" };
      });
      return recorded(`verification of ${v.run}`, await agent().verifyRun({ runId: need(v.run, "run"), by: (str(v.by) ?? "self") as "self", passed: !v.failed, checks }));
    },
  },
  {
    name: "run commit",
    summary: "Commit a verified run",
    options: { run: OPTIONS.runId, commit: { type: "string", description: "the commit it landed as", value: "SHA" } },
    run: async ({ values: v, agent }) => recorded(`commit of ${v.run}`, await agent().commitRun({ runId: need(v.run, "run"), commit: need(v.commit, "commit") })),
  },
  {
    name: "run discard",
    summary: "Discard a run",
    options: { run: OPTIONS.runId, reason: OPTIONS.reason },
    run: async ({ values: v, agent }) => recorded(`discard of ${v.run}`, await agent().discardRun({ runId: need(v.run, "run"), reason: need(v.reason, "reason") })),
  },
];

// `podwatch plan read|add|update|import`: the plan tools (docs/protocol/plan-and-handoffs.md).
import type { PlanJson } from "../../sdk/pod-agent";
import { keyValues, list, recorded, str, type Command } from "../command";
import { readJsonFile } from "../read-json-file";

export const planCommands: Command[] = [
  {
    name: "plan read",
    summary: "Print the plan as plan.json (plan_read)",
    run: async ({ agent }) => {
      const plan = await agent().readPlan();
      const text = plan.tasks.length
        ? plan.tasks.map((t) => `${t.task_id.padEnd(14)} ${t.status.padEnd(12)} ${t.description}`).join("\n")
        : "the plan has no tasks yet";
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
      "depends-on": {
        type: "string",
        multiple: true,
        description: "a task it waits for (repeatable)",
        value: "ID",
      },
      meta: { type: "string", multiple: true, description: "metadata (repeatable)", value: "KEY=VALUE" },
    },
    run: async ({ values: v, positionals: [description], agent }) => {
      const r = await agent().addTask({
        description: description!,
        taskId: str(v.id),
        dependsOn: list(v["depends-on"]),
        metadata: keyValues(list(v.meta), "meta"),
      });
      return { text: `task ${r.taskId} added as #${r.seq}`, json: r };
    },
  },
  {
    name: "plan update",
    summary: "Update a task's status and metadata (plan_update_task)",
    args: "<taskId>",
    arity: [1, 1],
    options: {
      status: {
        type: "string",
        description: "pending | in_progress | blocked | completed | cancelled …",
        value: "STATUS",
      },
      meta: {
        type: "string",
        multiple: true,
        description: "metadata to merge (repeatable)",
        value: "KEY=VALUE",
      },
      assignee: { type: "string", description: "who implements it", value: "MEMBER" },
      "blocked-reason": { type: "string", description: "why it is blocked", value: "TEXT" },
    },
    run: async ({ values: v, positionals: [taskId], agent }) => {
      const meta = keyValues(list(v.meta), "meta");
      const body = {
        taskId: taskId!,
        status: str(v.status) as "pending" | undefined,
        assignee: str(v.assignee),
        blockedReason: str(v["blocked-reason"]),
        ...(Object.keys(meta).length ? { metadata: meta } : {}),
      };
      return recorded(`update of ${taskId}`, await agent().updateTask(body, { taskId }));
    },
  },
  {
    name: "plan import",
    summary: "Import a plan.json as written",
    args: "<plan.json>",
    arity: [1, 1],
    run: async ({ positionals: [file], agent }) => {
      const r = await agent().importPlan(readJsonFile(file!) as PlanJson);
      return { text: `plan imported as #${r.event.seq}`, json: r };
    },
  },
];

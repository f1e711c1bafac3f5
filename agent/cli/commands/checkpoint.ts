// `podwatch checkpoint`: Completed / Next / Blocked.
import { list, OPTIONS, recorded, str, type Command } from "../command";

export const checkpoint: Command = {
  name: "checkpoint",
  summary: "Report Completed / Next / Blocked",
  options: {
    completed: {
      type: "string",
      multiple: true,
      short: "c",
      description: "something finished (repeatable)",
      value: "TEXT",
    },
    next: {
      type: "string",
      multiple: true,
      short: "n",
      description: "what comes next (repeatable)",
      value: "TEXT",
    },
    blocked: {
      type: "string",
      multiple: true,
      short: "b",
      description: "what blocks you (repeatable)",
      value: "TEXT",
    },
    task: OPTIONS.task,
  },
  examples: ['podwatch checkpoint -c "Parser done" -n "Write tests" -b "Need the API key"'],
  run: async ({ values: v, agent }) => {
    const body = {
      completed: list(v.completed),
      next: list(v.next),
      blocked: list(v.blocked),
      ...(str(v.task) ? { taskId: str(v.task) } : {}),
    };
    return recorded("checkpoint", await agent().checkpoint(body, { taskId: str(v.task) }));
  },
};

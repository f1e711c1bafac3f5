// `podwatch review request|submit`: asking for review of a task, and the reviewer's verdict.
import { list, OPTIONS, recorded, str, type Command } from "../command";

export const reviewCommands: Command[] = [
  {
    name: "review request",
    summary: "Ask for review of a task you implemented (moves it to in_review)",
    args: "<taskId>",
    arity: [1, 1],
    options: { evidence: OPTIONS.evidence },
    run: async ({ values: v, positionals: [taskId], agent }) =>
      recorded(`review request for ${taskId}`, await agent().requestReview(taskId!, list(v.evidence))),
  },
  {
    name: "review submit",
    summary: "Give your verdict on a task in review",
    args: "<taskId> <approve|reject|changes_requested>",
    arity: [2, 2],
    options: {
      comments: { type: "string", description: "what you found", value: "TEXT" },
      evidence: OPTIONS.evidence,
    },
    run: async ({ values: v, positionals: [taskId, verdict], agent }) =>
      recorded(
        `review of ${taskId}`,
        await agent().review({
          taskId: taskId!,
          verdict: verdict as "approve",
          comments: str(v.comments) ?? "",
          evidenceIds: list(v.evidence),
        }),
      ),
  },
];

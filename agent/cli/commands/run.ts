// `podwatch run start|verify|commit|discard`: a run on a work item (docs/protocol/runs-and-notes.md).
import { UsageError } from "../../sdk/errors";
import { keyValues, list, OPTIONS, recorded, str, type Command } from "../command";

const need = (v: unknown, flag: string) => str(v) ?? fail(`--${flag} is required`);
const fail = (m: string): never => {
  throw new UsageError(m);
};

export const runCommands: Command[] = [
  {
    name: "run start",
    summary: "Start a run on a work item",
    options: {
      run: OPTIONS.runId,
      task: { type: "string", description: "the work item (task) id", value: "ID" },
      mood: { type: "string", description: "e.g. CURIOUS, SKEPTICAL (default FOCUSED)", value: "MOOD" },
    },
    run: async ({ values: v, agent }) =>
      recorded(
        `run ${v.run}`,
        await agent().startRun({
          runId: need(v.run, "run"),
          workItemId: need(v.task, "task"),
          mood: str(v.mood) ?? "FOCUSED",
        }),
      ),
  },
  {
    name: "run verify",
    summary: "Record a run's verification, by self or director",
    options: {
      run: OPTIONS.runId,
      by: { type: "string", description: "self | director (default self)", value: "WHO" },
      failed: { type: "boolean", description: "verification failed (default: passed)" },
      check: {
        type: "string",
        multiple: true,
        description: "a check and its outcome, e.g. unit=pass lint=fail (repeatable)",
        value: "NAME=pass|fail",
      },
    },
    run: async ({ values: v, agent }) => {
      const checks = Object.entries(keyValues(list(v.check), "check", false)).map(([name, r]) => {
        if (r !== "pass" && r !== "fail")
          throw new UsageError(`--check ${name}= takes pass or fail, not "${r}"`);
        return { name, passed: r === "pass" };
      });
      return recorded(
        `verification of ${v.run}`,
        await agent().verifyRun({
          runId: need(v.run, "run"),
          by: (str(v.by) ?? "self") as "self",
          passed: !v.failed,
          checks,
        }),
      );
    },
  },
  {
    name: "run commit",
    summary: "Commit a verified run",
    options: {
      run: OPTIONS.runId,
      commit: { type: "string", description: "the commit it landed as", value: "SHA" },
    },
    run: async ({ values: v, agent }) =>
      recorded(
        `commit of ${v.run}`,
        await agent().commitRun({ runId: need(v.run, "run"), commit: need(v.commit, "commit") }),
      ),
  },
  {
    name: "run discard",
    summary: "Discard a run",
    options: { run: OPTIONS.runId, reason: OPTIONS.reason },
    run: async ({ values: v, agent }) =>
      recorded(
        `discard of ${v.run}`,
        await agent().discardRun({ runId: need(v.run, "run"), reason: need(v.reason, "reason") }),
      ),
  },
];

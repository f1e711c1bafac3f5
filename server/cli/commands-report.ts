// Reporting commands: checkpoints, notes, handoffs, reviews and escalations.
import { NOTE_KINDS } from "../wire/events";
import { UsageError } from "../sdk/errors";
import { EXIT } from "./exit-codes";
import { keyValues, list, OPTIONS, recorded, str, type Command, type OptionSpec } from "./command";

const task: OptionSpec = { type: "string", description: "the task this is about", value: "ID" };
const run: OptionSpec = { type: "string", description: "the run this is part of", value: "ID" };

export const reportCommands: Command[] = [
  {
    name: "whoami",
    summary: "Show who the token speaks for",
    run: async ({ agent }) => {
      const me = await agent().client.whoami();
      return { text: me.kind === "agent" ? `${me.memberId} in pod ${me.podId}` : me.kind, json: me };
    },
  },
  {
    name: "checkpoint",
    summary: "Report Completed / Next / Blocked",
    options: {
      completed: { type: "string", multiple: true, short: "c", description: "something finished (repeatable)", value: "TEXT" },
      next: { type: "string", multiple: true, short: "n", description: "what comes next (repeatable)", value: "TEXT" },
      blocked: { type: "string", multiple: true, short: "b", description: "what blocks you (repeatable)", value: "TEXT" },
      task,
    },
    examples: ['podwatch checkpoint -c "Parser done" -n "Write tests" -b "Need the API key"'],
    run: async ({ values: v, agent }) => {
      const body = { completed: list(v.completed), next: list(v.next), blocked: list(v.blocked), ...(str(v.task) ? { taskId: str(v.task) } : {}) };
      return recorded("checkpoint", await agent().checkpoint(body, { taskId: str(v.task) }));
    },
  },
  {
    name: "note",
    summary: "Write a typed note (seed 002 NOTE kinds)",
    args: "<KIND> <text>",
    arity: [2, 2],
    options: { set: { type: "string", multiple: true, description: "an extra field, e.g. test=… budget=… (repeatable)", value: "KEY=VALUE" }, task, run },
    examples: [`podwatch note OBSERVATION "Two call sites, no tests"`, `podwatch note HYPOTHESIS "Cache misses" --set test="bench" --set budget="15 min"`, `Kinds: ${NOTE_KINDS.join(", ")}`],
    run: async ({ values: v, positionals: [kind, text], agent }) => {
      const k = kind!.toUpperCase();
      if (!(NOTE_KINDS as readonly string[]).includes(k)) throw new UsageError(`unknown note kind ${kind}: use one of ${NOTE_KINDS.join(", ")}`);
      const body = { ...keyValues(list(v.set), "set"), kind: k, text } as Parameters<ReturnType<typeof agent>["note"]>[0];
      return recorded(`${k} note`, await agent().note(body, { taskId: str(v.task), runId: str(v.run) }));
    },
  },
  {
    name: "handoff",
    summary: "Hand the turn to another member (seed 003 handoff)",
    options: { to: { type: "string", description: "the member who acts next", value: "MEMBER" }, reason: OPTIONS.reason },
    examples: ['podwatch handoff --to reviewer-1 --reason "Ready for review"'],
    run: async ({ values: v, agent }) => {
      if (!str(v.to) || !str(v.reason)) throw new UsageError("handoff needs --to and --reason");
      return recorded(`handoff to ${v.to}`, await agent().handoff(str(v.to)!, str(v.reason)!));
    },
  },
  {
    name: "review request",
    summary: "Ask for review of a task you implemented (moves it to in_review)",
    args: "<taskId>",
    arity: [1, 1],
    options: { evidence: OPTIONS.evidence },
    run: async ({ values: v, positionals: [taskId], agent }) => recorded(`review request for ${taskId}`, await agent().requestReview(taskId!, list(v.evidence))),
  },
  {
    name: "review submit",
    summary: "Give your verdict on a task in review",
    args: "<taskId> <approve|reject|changes_requested>",
    arity: [2, 2],
    options: { comments: { type: "string", description: "what you found", value: "TEXT" }, evidence: OPTIONS.evidence },
    run: async ({ values: v, positionals: [taskId, verdict], agent }) =>
      recorded(`review of ${taskId}`, await agent().review({ taskId: taskId!, verdict: verdict as "approve", comments: str(v.comments) ?? "", evidenceIds: list(v.evidence) })),
  },
  {
    name: "escalate",
    summary: "Ask the humans; with --wait, block until one answers and print the answer",
    args: "<question>",
    arity: [1, 1],
    options: {
      kind: { type: "string", description: "intent | risk_tolerance | external_input (default external_input)", value: "KIND" },
      option: { type: "string", multiple: true, description: "an answer to offer (repeatable)", value: "TEXT" },
      evidence: OPTIONS.evidence,
      task,
      id: { type: "string", description: "the escalation id (default: generated)", value: "ID" },
      wait: { type: "boolean", description: "wait for the answer and print it" },
      timeout: { type: "string", description: "with --wait: give up after this many seconds (exit 8)", value: "SECONDS" },
    },
    examples: ['podwatch escalate "Is at-least-once delivery acceptable?" --kind risk_tolerance --option Yes --option No --wait'],
    run: async ({ values: v, positionals: [question], agent, out, signal }) => {
      const kind = (str(v.kind) ?? "external_input") as "intent";
      const timeout = str(v.timeout) === undefined ? undefined : Number(v.timeout);
      if (timeout !== undefined && !(timeout > 0)) throw new UsageError("--timeout takes a number of seconds above 0");
      const a = agent();
      const esc = await a.escalate({ question: question!, kind, options: list(v.option).length ? list(v.option) : undefined, taskId: str(v.task), evidenceIds: list(v.evidence), escalationId: str(v.id) }, { taskId: str(v.task) });
      if (!v.wait) return { text: `escalation ${esc.escalationId} recorded as #${esc.seq}`, json: esc };
      out.progress(`escalation ${esc.escalationId} recorded as #${esc.seq}; waiting for a human to answer…`, true);
      const answer = await a.waitForAnswer(esc, { timeoutSeconds: timeout, signal });
      if (!answer) return { text: `no answer to ${esc.escalationId} within ${timeout}s`, json: { ...esc, answer: null }, exitCode: EXIT.timeout };
      return { text: answer.answer, json: { ...esc, answer: answer.answer, by: answer.by, answerSeq: answer.seq } };
    },
  },
];

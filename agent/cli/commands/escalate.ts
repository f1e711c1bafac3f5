// `podwatch escalate`: a question for the humans; with --wait, the answer.
import { UsageError } from "../../sdk/errors";
import { EXIT } from "../exit-codes";
import { list, OPTIONS, str, type Command } from "../command";
import { deadlineFrom } from "../deadline-flags";

export const escalate: Command = {
  name: "escalate",
  summary: "Ask the humans; with --wait, block until one answers and print the answer",
  args: "<question>",
  arity: [1, 1],
  options: {
    kind: {
      type: "string",
      description: "intent | risk_tolerance | external_input (default external_input)",
      value: "KIND",
    },
    option: { type: "string", multiple: true, description: "an answer to offer (repeatable)", value: "TEXT" },
    evidence: OPTIONS.evidence,
    task: OPTIONS.task,
    id: { type: "string", description: "the escalation id (default: generated)", value: "ID" },
    wait: { type: "boolean", description: "wait for the answer and print it" },
    timeout: {
      type: "string",
      description: "with --wait: give up after this many seconds (exit 8)",
      value: "SECONDS",
    },
    deadline: {
      type: "string",
      description: "when nobody answered by then: 30m, 2h, 1d or an ISO time",
      value: "WHEN",
    },
    then: {
      type: "string",
      description: "with --deadline: remind (default) | answer (needs --answer)",
      value: "WHAT",
    },
    answer: {
      type: "string",
      description: "with --deadline: the default answer given when it passes (one of the options)",
      value: "TEXT",
    },
  },
  examples: [
    'podwatch escalate "Is at-least-once delivery acceptable?" --kind risk_tolerance --option Yes --option No --wait',
    'podwatch escalate "Ship on Friday?" --option Yes --option No --deadline 30m --then answer --answer No --wait',
  ],
  run: async ({ values: v, positionals: [question], agent, out, signal }) => {
    const kind = (str(v.kind) ?? "external_input") as "intent";
    const timeout = str(v.timeout) === undefined ? undefined : Number(v.timeout);
    if (timeout !== undefined && !(timeout > 0))
      throw new UsageError("--timeout takes a number of seconds above 0");
    const deadline = deadlineFrom(str(v.deadline), str(v.then), str(v.answer));
    const a = agent();
    const esc = await a.escalate(
      {
        question: question!,
        kind,
        options: list(v.option).length ? list(v.option) : undefined,
        taskId: str(v.task),
        evidenceIds: list(v.evidence),
        escalationId: str(v.id),
        ...(deadline ? { deadline } : {}),
      },
      { taskId: str(v.task) },
    );
    if (!v.wait) return { text: `escalation ${esc.escalationId} recorded as #${esc.seq}`, json: esc };
    out.progress(
      `escalation ${esc.escalationId} recorded as #${esc.seq}; waiting for a human to answer…`,
      true,
    );
    const answer = await a.waitForAnswer(esc, { timeoutSeconds: timeout, signal });
    if (!answer)
      return {
        text: `no answer to ${esc.escalationId} within ${timeout}s`,
        json: { ...esc, answer: null },
        exitCode: EXIT.timeout,
      };
    if (answer.byDeadline)
      out.progress(
        `no human answered ${esc.escalationId} in time: its deadline gave the default answer`,
        true,
      );
    return {
      text: answer.answer,
      json: {
        ...esc,
        answer: answer.answer,
        by: answer.by,
        answerSeq: answer.seq,
        byDeadline: answer.byDeadline ?? false,
      },
    };
  },
};

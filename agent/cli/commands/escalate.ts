// `podwatch escalate`: a question for the humans; with --wait, the answer.
import { randomUUID } from "node:crypto";
import { answerResult, TIMEOUT_OPTION, timeoutSeconds } from "../answer-result";
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
    timeout: { ...TIMEOUT_OPTION, description: `with --wait: ${TIMEOUT_OPTION.description}` },
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
    const timeout = timeoutSeconds(v.timeout);
    const deadline = deadlineFrom(str(v.deadline), str(v.then), str(v.answer));
    const a = agent();
    // The id is fixed before the first try: a try the server stored without answering is sent
    // again under it, and a person (or `podwatch wait`) can find it whatever happens here.
    const escalationId = str(v.id) ?? `esc-${randomUUID().slice(0, 8)}`;
    const esc = await a.escalate(
      {
        question: question!,
        kind,
        options: list(v.option).length ? list(v.option) : undefined,
        taskId: str(v.task),
        evidenceIds: list(v.evidence),
        escalationId,
        ...(deadline ? { deadline } : {}),
      },
      { taskId: str(v.task) },
      {
        signal,
        onRetry: (e, _n, ms) =>
          out.progress(`escalation ${escalationId}: ${e.message}; trying again in ${ms / 1000}s`, true),
      },
    );
    if (!v.wait) return { text: `escalation ${esc.escalationId} recorded as #${esc.seq}`, json: esc };
    out.progress(
      `escalation ${esc.escalationId} recorded as #${esc.seq}; waiting for a human to answer…`,
      true,
    );
    const answer = await a.waitForAnswer(esc, { timeoutSeconds: timeout, signal });
    return answerResult(esc, answer, timeout, out);
  },
};

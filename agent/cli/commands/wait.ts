// `podwatch wait <escalationId>`: the answer to an escalation asked earlier — by a run that
// crashed or was stopped while it waited, or by `escalate` without --wait. Prints as
// `escalate --wait` does, with the same exit codes.
import { answerResult, TIMEOUT_OPTION, timeoutSeconds } from "../answer-result";
import type { Command } from "../command";

export const wait: Command = {
  name: "wait",
  summary: "Block until a human answers an escalation asked earlier, and print the answer",
  args: "<escalationId>",
  arity: [1, 1],
  options: { timeout: TIMEOUT_OPTION },
  examples: ["podwatch wait esc-1a2b3c4d --timeout 3600"],
  run: async ({ values: v, positionals: [escalationId], agent, out, signal }) => {
    const timeout = timeoutSeconds(v.timeout);
    const a = agent();
    const esc = await a.findEscalation(escalationId!, {
      signal,
      onRetry: (e, _n, ms) => out.progress(`${e.message}; trying again in ${ms / 1000}s`, true),
    });
    if (!esc.answer) out.progress(`waiting for a human to answer ${esc.escalationId}…`, true);
    const answer = esc.answer ?? (await a.waitForAnswer(esc, { timeoutSeconds: timeout, signal }));
    return answerResult({ escalationId: esc.escalationId, seq: esc.askedSeq }, answer, timeout, out);
  },
};

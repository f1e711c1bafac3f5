// What `escalate --wait` and `wait` print once the wait ends: the answer (exit 0), or that none
// came within --timeout (exit 8). The same for both, so a script reads either alike.
import type { Answer, Escalation } from "../sdk/pod-agent";
import { UsageError } from "../sdk/errors";
import type { Output, Result } from "./command";
import { str } from "./command";
import { EXIT } from "./exit-codes";

export const TIMEOUT_OPTION = {
  type: "string",
  description: "give up waiting after this many seconds (exit 8)",
  value: "SECONDS",
} as const;

/** --timeout as seconds above 0, or undefined to wait for as long as it takes. */
export function timeoutSeconds(value: unknown): number | undefined {
  const timeout = str(value) === undefined ? undefined : Number(value);
  if (timeout !== undefined && !(timeout > 0))
    throw new UsageError("--timeout takes a number of seconds above 0");
  return timeout;
}

export function answerResult(
  esc: Escalation,
  answer: Answer | null,
  timeout: number | undefined,
  out: Output,
): Result {
  if (!answer)
    return {
      text: `no answer to ${esc.escalationId} within ${timeout}s`,
      json: { ...esc, answer: null },
      exitCode: EXIT.timeout,
    };
  if (answer.byDeadline)
    out.progress(`no human answered ${esc.escalationId} in time: its deadline gave the default answer`, true);
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
}

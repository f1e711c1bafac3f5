"use client";
// A held tool call on its inbox card: which agent program (agent-kind-badge.tsx) and member asks
// to run what (its whole input, scrollable), what the agent was doing, what the deadline decides,
// and the answers — once, for this session, always for this exact call, or deny with a reason the
// agent is told. The person must read what would run: hidden characters show as escapes, and a
// call whose input was cut can only be denied.
import { useId, useState } from "react";
import { useOnClient } from "../shared/use-client-now";
import type { InboxCard } from "@/server/wire/views";
import { answerToolApproval } from "@/server/web/server-actions";
import { deadlineSentence, heldInput, notWholeSentence } from "./held-call-view";
import { RevealedText } from "./revealed-text";
import { AgentKindBadge } from "./agent-kind-badge";
import { fieldLabel, greenButton, plainButton, redButton } from "./card-styles";

type Props = {
  podId: string;
  item: InboxCard;
  canAct: boolean;
  pending: boolean;
  error: string | null;
  /** The card's one chain: runs the action, shows its refusal, refreshes the inbox. */
  act: (action: () => Promise<{ ok: boolean; error?: string }>) => void;
};

const hhmm = (d: Date) => d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
const code =
  "max-h-64 overflow-auto rounded-md bg-zinc-950 p-2 font-mono text-xs whitespace-pre-wrap break-all text-zinc-100 focus:outline-2 focus:outline-sky-600";

export function HeldCallPanel({ podId, item, canAct, pending, error, act }: Props) {
  const [reason, setReason] = useState("");
  const reasonId = useId();
  const onClient = useOnClient();
  const ctx = item.context?.kind === "tool" ? item.context : null;
  const input = heldInput(item.text);
  const when = deadlineSentence(item.due, onClient ? hhmm : (d) => `${d.toISOString().slice(11, 16)} UTC`);
  const answer = (decision: "allow" | "deny", remember: "once" | "session" | "always") => () =>
    act(() =>
      answerToolApproval({
        podId,
        answer: {
          requestId: item.subject.id,
          decision,
          remember,
          ...(reason.trim() ? { reason: reason.trim() } : {}),
        },
      }),
    );

  return (
    <div className="space-y-2" data-testid="held-call">
      {ctx && (
        <p className="max-h-24 overflow-auto text-xs break-all text-zinc-700 dark:text-zinc-300">
          <AgentKindBadge kind={ctx.agentKind} />
          <span className={fieldLabel}>Agent </span>
          <span className="font-mono">{ctx.agentId}</span>
          <span className={fieldLabel}> · tool </span>
          <span className="font-mono" data-testid="held-call-tool">
            <RevealedText text={ctx.tool} />
          </span>
          {ctx.cwd && (
            <>
              <span className={fieldLabel}> · in </span>
              <span className="font-mono" data-testid="held-call-cwd">
                <RevealedText text={ctx.cwd} />
              </span>
            </>
          )}
          {ctx.ruleId && (
            <>
              <span className={fieldLabel}> · rule </span>
              <span className="font-mono">
                <RevealedText text={ctx.ruleId} />
              </span>
            </>
          )}
        </p>
      )}
      {!input.whole && (
        <p
          className="rounded-md border border-red-300 bg-red-50 p-2 text-xs font-medium text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          data-testid="held-call-cut"
        >
          {notWholeSentence(item.text)}
        </p>
      )}
      {input.hidden > 0 && (
        <p
          className="rounded-md border border-amber-300 bg-amber-50 p-2 text-xs font-medium text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
          data-testid="held-call-hidden"
        >
          This input holds {input.hidden} hidden or control character{input.hidden === 1 ? "" : "s"} (shown as{" "}
          <span className="font-mono">\u…</span> codes): what runs may differ from how it looks.
        </p>
      )}
      {input.command !== null && (
        <pre tabIndex={0} aria-label="Command" className={code} data-testid="held-call-command">
          <code>
            <RevealedText text={input.command} />
          </code>
        </pre>
      )}
      <details open={input.command === null}>
        <summary className={`${fieldLabel} cursor-pointer`}>
          {input.command === null ? "Input" : "Whole input"}
        </summary>
        <pre tabIndex={0} aria-label="Whole input" className={`${code} mt-1`} data-testid="held-call-input">
          <code>{input.pretty ? <RevealedText text={input.pretty} /> : "(no input)"}</code>
        </pre>
      </details>
      {item.recent && item.recent.length > 0 && (
        <div>
          <p className={fieldLabel}>What the agent was doing</p>
          <ol
            className="max-h-40 space-y-0.5 overflow-auto text-xs break-words text-zinc-700 dark:text-zinc-300"
            data-testid="held-call-recent"
          >
            {item.recent.map((line, i) => (
              <li key={i}>
                <RevealedText text={line} />
              </li>
            ))}
          </ol>
        </div>
      )}
      {when && (
        <p
          className="text-xs font-medium text-amber-900 dark:text-amber-300"
          data-testid="held-call-deadline"
        >
          {when}
        </p>
      )}
      {!canAct && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="read-only">
          Read-only: you can watch this pod; an approver answers.
        </p>
      )}
      {canAct && (
        <div className="space-y-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={reasonId} className={fieldLabel}>
              Reason (optional; the agent is told)
            </label>
            <input
              id={reasonId}
              value={reason}
              maxLength={2000}
              onChange={(e) => setReason(e.target.value)}
              className="min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            />
          </div>
          <div className="flex flex-wrap gap-2">
            {input.whole && (
              <>
                <button disabled={pending} onClick={answer("allow", "once")} className={greenButton}>
                  Allow once
                </button>
                <button
                  disabled={pending || !ctx?.sessionId}
                  onClick={answer("allow", "session")}
                  className={plainButton}
                  title={
                    ctx?.sessionId
                      ? "This tool on this same input, for the rest of the agent's session"
                      : "This call belongs to no session"
                  }
                >
                  Allow for this session
                </button>
                <button
                  disabled={pending}
                  onClick={answer("allow", "always")}
                  className={plainButton}
                  title="Adds an allow rule for exactly this call to the agent's policy"
                >
                  Always allow this
                </button>
              </>
            )}
            <button disabled={pending} onClick={answer("deny", "once")} className={redButton}>
              Deny
            </button>
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

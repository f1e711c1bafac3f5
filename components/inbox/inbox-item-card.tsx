"use client";
// One thing waiting for a human, what backs it, and the controls to settle it
// (for approvers). Keyboard (when focused): a approves/accepts, r rejects;
// accepting or rejecting a delivery moves money, so it asks first.
import { forwardRef, useState } from "react";
import type { InboxCard } from "@/server/wire/views";
import { answerEscalation, decide, dismissNotice } from "@/server/web/server-actions";
import { RelativeTime } from "../shared/relative-time";
import { useAction } from "../shared/use-action";
import {
  DECISION_SUBJECTS,
  TIE_BREAKERS,
  type DecisionVerdict,
  type TieBreaker,
} from "@/server/wire/vocabulary";
import { InboxContextView, formatMoney } from "./inbox-context";
import { ConfirmMoney } from "./confirm-money";
import { DueBadge } from "./due-badge";
import { HeldCallPanel } from "./held-call-panel";
import { BudgetCrossedPanel } from "./budget-crossed-panel";
import { RevealedText } from "./revealed-text";
import { cardButton, greenButton, plainButton, redButton } from "./card-styles";

type Props = {
  podId: string;
  podName?: string;
  /** `answerRefused`: the cross-pod read's reason this person's answer would be refused. */
  item: InboxCard & { answerRefused?: string };
  blockedBy: string[];
  canAct: boolean;
  /** The pod's reason this person may not answer its escalations (the pod page asks the server's rule). */
  escalationRefused?: string | null;
  focused?: boolean;
  onFocus?: () => void;
  /** Called when an action on this item starts (the list moves focus to what takes its place once it leaves). */
  onSettled?: () => void;
};

const typing = (t: HTMLElement) => ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName);

export const InboxItemCard = forwardRef<HTMLLIElement, Props>(function InboxItemCard(
  { podId, podName, item, blockedBy, canAct, escalationRefused, focused, onFocus, onSettled },
  ref,
) {
  const [text, setText] = useState("");
  const [tieBreaker, setTieBreaker] = useState<TieBreaker | "">("");
  const [confirming, setConfirming] = useState<"accept" | "reject" | null>(null);
  const { run, pending, error } = useAction(podId);
  const act = (action: () => Promise<{ ok: boolean; error?: string }>) => {
    // Said before the action runs: the live tape may drop this item from the list before the
    // action's own answer arrives, and focus must still move to what takes its place.
    onSettled?.();
    run(action, () => setText(""));
  };
  // Only what a decision may be about takes a verdict (the server checks it again).
  const subjectKind = DECISION_SUBJECTS.find((k) => k === item.subject.kind);
  const decideWith = (verdict: DecisionVerdict) => () =>
    act(async () =>
      !subjectKind
        ? { ok: false, error: `a ${item.subject.kind} takes no verdict` }
        : decide({
            podId,
            subject: { kind: subjectKind, id: item.subject.id },
            verdict,
            rationale:
              text ||
              (verdict === "approve" || verdict === "accept"
                ? "Approved in the control room"
                : "Rejected in the control room"),
            ...(tieBreaker ? { tieBreaker } : {}),
          }),
    );
  const isJob = item.kind === "job_acceptance";
  const refused = item.kind === "escalation" ? (item.answerRefused ?? escalationRefused) : null;
  /** Stale agents and notices are told, not decided: a checkpoint clears the one, an admin dismisses the other. A held tool call, a crossed budget and an idle agent (resumed from Now) have answers of their own. */
  const decides =
    item.kind !== "stale" &&
    item.kind !== "notice" &&
    item.kind !== "tool_approval" &&
    item.kind !== "budget" &&
    item.kind !== "idle";
  const positive = isJob ? () => setConfirming("accept") : decideWith("approve");
  const negative = isJob ? () => setConfirming("reject") : decideWith("reject");

  const onKey = (e: React.KeyboardEvent) => {
    if (
      !canAct ||
      !decides ||
      refused ||
      pending ||
      confirming ||
      typing(e.target as HTMLElement) ||
      e.metaKey ||
      e.ctrlKey ||
      e.altKey
    )
      return;
    if (e.key === "a" && item.kind !== "escalation" && !(item.kind === "decision" && blockedBy.length))
      positive();
    if (e.key === "r" && item.kind !== "escalation" && item.kind !== "plan_blocked") negative();
  };
  const ageMs = Date.now() - new Date(item.at).getTime();
  const job = item.context?.kind === "job" ? item.context : null;
  const amount = job ? formatMoney(job.settlement.amount, job.settlement.currency) : "the escrow";

  return (
    <li
      ref={ref}
      tabIndex={0}
      onKeyDown={onKey}
      onFocus={() => onFocus?.()}
      className={`min-w-0 space-y-2 rounded-lg border bg-white p-3 outline-none focus:ring-2 focus:ring-sky-600 dark:bg-zinc-900 dark:focus:ring-sky-400 ${focused ? "border-zinc-500" : "border-zinc-200 dark:border-zinc-800"}`}
      data-testid="inbox-item"
      data-kind={item.kind}
      aria-label={`${item.kind.replace("_", " ")}: ${item.title}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-amber-100 px-1.5 py-0.5 text-[11px] font-medium uppercase text-amber-900 dark:bg-amber-950 dark:text-amber-300">
          {item.kind.replace("_", " ")}
        </span>
        {item.due && <DueBadge due={item.due} />}
        {podName && (
          <a
            href={`/pods/${podId}?tab=inbox`}
            className="min-w-0 truncate text-xs font-medium text-zinc-600 hover:underline dark:text-zinc-400"
          >
            {podName}
          </a>
        )}
        <span
          className={`ml-auto text-xs ${ageMs > 3_600_000 ? "font-medium text-amber-800 dark:text-amber-400" : "text-zinc-600 dark:text-zinc-400"}`}
          title="waiting since"
        >
          waiting <RelativeTime iso={item.at} />
        </span>
      </div>
      <p className="text-sm break-words">
        {item.kind === "tool_approval" ? <RevealedText text={item.title} /> : item.title}
      </p>
      {item.text && item.kind !== "tool_approval" && (
        <p className="text-sm whitespace-pre-wrap break-words text-zinc-700 dark:text-zinc-300">
          {item.text}
        </p>
      )}
      {item.kind === "tool_approval" && (
        <HeldCallPanel podId={podId} item={item} canAct={canAct} pending={pending} error={error} act={act} />
      )}
      {item.kind === "budget" && (
        <BudgetCrossedPanel
          podId={podId}
          item={item}
          canAct={canAct}
          pending={pending}
          error={error}
          act={act}
        />
      )}
      {item.kind === "idle" && (
        <p className="text-sm">
          {/* Resuming is steering the session: its message box in Now says what the agent hears. */}
          <a
            href={`/?resume=${encodeURIComponent(item.subject.id)}`}
            className="font-medium text-sky-800 underline dark:text-sky-300"
          >
            Resume it in Now
          </a>
        </p>
      )}
      {item.kind === "stale" && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          This clears when the agent posts its next checkpoint.
        </p>
      )}
      {item.kind === "notice" && canAct && (
        <div className="space-y-2">
          <button
            disabled={pending}
            onClick={() => act(() => dismissNotice({ podId, noticeId: item.subject.id }))}
            className={plainButton}
          >
            Dismiss notice
          </button>
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
      <InboxContextView podId={podId} context={item.context} />
      {!canAct && decides && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="read-only">
          Read-only: you can watch this pod; an approver decides.
        </p>
      )}
      {canAct && decides && refused && (
        <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="answer-not-yours">
          You watch this one: {refused}.
        </p>
      )}
      {canAct && decides && !refused && (
        <div className="space-y-2">
          <div className="flex flex-wrap gap-2">
            <input
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={item.kind === "escalation" ? "Your answer" : "Rationale (optional)"}
              aria-label={item.kind === "escalation" ? "Answer" : "Rationale"}
              className="min-w-0 flex-1 basis-40 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
            />
            {item.kind !== "escalation" && (
              <select
                aria-label="Tie-breaker"
                value={tieBreaker}
                onChange={(e) => setTieBreaker(TIE_BREAKERS.find((t) => t === e.target.value) ?? "")}
                className="min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
                title="In order of precedence: text/spec → safety → determinism → reversibility → timebox; spike for factual disagreements"
              >
                <option value="">Tie-breaker…</option>
                {TIE_BREAKERS.map((t) => (
                  <option key={t} value={t}>
                    {t.replace("_", "/")}
                  </option>
                ))}
              </select>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-2">
            {item.kind === "escalation" ? (
              <>
                {(item.options ?? []).map((o) => (
                  <button
                    key={o}
                    disabled={pending}
                    onClick={() =>
                      act(() => answerEscalation({ podId, escalationId: item.subject.id, answer: o }))
                    }
                    className={`${plainButton} break-words`}
                  >
                    {o}
                  </button>
                ))}
                <button
                  disabled={pending || !text.trim()}
                  onClick={() =>
                    act(() => answerEscalation({ podId, escalationId: item.subject.id, answer: text }))
                  }
                  className={`${cardButton} bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900`}
                >
                  Answer
                </button>
              </>
            ) : isJob ? (
              <>
                <button
                  disabled={pending}
                  onClick={positive}
                  className={greenButton}
                  title="Accept (a): asks to confirm"
                >
                  Accept and release
                </button>
                <button
                  disabled={pending}
                  onClick={negative}
                  className={redButton}
                  title="Reject (r): asks to confirm"
                >
                  Reject and refund
                </button>
              </>
            ) : item.kind === "plan_blocked" ? (
              <button disabled={pending} onClick={positive} className={greenButton}>
                Approve the plan
              </button>
            ) : (
              <>
                <button
                  disabled={pending || blockedBy.length > 0}
                  onClick={positive}
                  className={greenButton}
                  title={blockedBy.length ? `Blocked: ${blockedBy.join("; ")}` : "Approve (a)"}
                >
                  Approve
                </button>
                <button disabled={pending} onClick={negative} className={redButton} title="Reject (r)">
                  Reject
                </button>
                {blockedBy.length > 0 && (
                  <span
                    className="text-xs break-words text-red-700 dark:text-red-400"
                    data-testid="approve-blocked"
                  >
                    Approve is disabled: {blockedBy.join("; ")}
                  </span>
                )}
              </>
            )}
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              {error}
            </p>
          )}
        </div>
      )}
      {isJob && canAct && (
        <ConfirmMoney
          open={confirming !== null}
          tone={confirming === "reject" ? "refund" : "release"}
          title={
            confirming === "reject"
              ? `Reject the delivery and refund ${amount}?`
              : `Accept the delivery and release ${amount}?`
          }
          description={`${item.title}. ${confirming === "reject" ? "The escrow goes back to the client" : "The escrow is paid to the contractor"}; this cannot be undone.`}
          confirmLabel={confirming === "reject" ? "Reject and refund" : "Accept and release"}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const verdict = confirming === "reject" ? "reject" : "accept";
            setConfirming(null);
            decideWith(verdict)();
          }}
        />
      )}
    </li>
  );
});

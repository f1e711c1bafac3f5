"use client";
// The house's one way to ask before an act that cannot be undone (removing, revoking, deleting):
// the button turns into the question with the act's own words (focused) and Cancel; Escape or
// Cancel puts the button back, focused. Never the browser's confirm(), never no question at all.
import { useEffect, useRef, useState } from "react";

type Props = {
  /** The question, saying what will be lost ("Remove budget b1? Nothing will watch …"). */
  question: React.ReactNode;
  /** The confirming button's words ("Yes, remove"). */
  confirmLabel: string;
  /** The group's accessible name while asking ("Confirm removing budget b1"). */
  groupLabel: string;
  pending: boolean;
  onConfirm: () => void;
  buttonClass: string;
  confirmClass: string;
  /** The button's name when its text alone does not say what it acts on (a row in a list). */
  label?: string;
  testId?: string;
  children: React.ReactNode;
};

export function ConfirmButton(props: Props) {
  const { question, confirmLabel, groupLabel, pending, onConfirm, buttonClass, confirmClass } = props;
  const [asking, setAsking] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    // Back from the question (not on first render): focus returns to the button that asked it.
    if (!asking && wasAsking.current) trigger.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={trigger}
        type="button"
        disabled={pending}
        onClick={() => setAsking(true)}
        className={buttonClass}
        aria-label={props.label}
      >
        {props.children}
      </button>
    );
  }
  return (
    <span
      role="group"
      aria-label={groupLabel}
      onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setAsking(false))}
      className="flex flex-wrap items-center gap-2 text-sm"
      data-testid={props.testId}
    >
      <span>{question}</span>
      <button type="button" autoFocus disabled={pending} onClick={onConfirm} className={confirmClass}>
        {confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)} className={buttonClass}>
        Cancel
      </button>
    </span>
  );
}

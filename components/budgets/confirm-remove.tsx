"use client";
// Removing a budget asks first, as deleting a webhook does: the button turns into the question
// with "Yes, remove" (focused) and Cancel; Escape or Cancel puts the button back, focused.
import { useEffect, useRef, useState } from "react";

type Props = {
  budgetId: string;
  pending: boolean;
  onConfirm: () => void;
  /** The look of the two quiet buttons (the panel's and the inbox card's differ). */
  buttonClass: string;
  confirmClass: string;
  /** The button's name when its text alone does not say which budget (a row in a list). */
  label?: string;
  children: React.ReactNode;
};

export function ConfirmRemove({
  budgetId,
  pending,
  onConfirm,
  buttonClass,
  confirmClass,
  label,
  children,
}: Props) {
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
        aria-label={label}
      >
        {children}
      </button>
    );
  }
  return (
    <span
      role="group"
      aria-label={`Confirm removing budget ${budgetId}`}
      onKeyDown={(e) => e.key === "Escape" && (e.stopPropagation(), setAsking(false))}
      className="flex flex-wrap items-center gap-2 text-sm"
      data-testid="budget-remove-confirm"
    >
      <span>
        Remove budget <span className="break-all font-mono">{budgetId}</span>? Nothing will watch what it
        counted.
      </span>
      <button type="button" autoFocus disabled={pending} onClick={onConfirm} className={confirmClass}>
        Yes, remove
      </button>
      <button type="button" onClick={() => setAsking(false)} className={buttonClass}>
        Cancel
      </button>
    </span>
  );
}

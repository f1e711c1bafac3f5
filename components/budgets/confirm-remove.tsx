"use client";
// Removing a budget asks first, in the house's one way (components/shared/confirm-button.tsx).
import { ConfirmButton } from "../shared/confirm-button";

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

export function ConfirmRemove({ budgetId, ...rest }: Props) {
  return (
    <ConfirmButton
      {...rest}
      question={
        <>
          Remove budget <span className="break-all font-mono">{budgetId}</span>? Nothing will watch what it
          counted.
        </>
      }
      confirmLabel="Yes, remove"
      groupLabel={`Confirm removing budget ${budgetId}`}
      testId="budget-remove-confirm"
    />
  );
}

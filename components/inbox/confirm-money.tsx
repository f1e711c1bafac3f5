"use client";
// Moving money asks first: a modal dialog (the browser's <dialog>: focus stays
// inside, Escape cancels) that names the amount and where it goes.
import { useEffect, useRef } from "react";

type Props = {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  tone: "release" | "refund";
  onConfirm: () => void;
  onCancel: () => void;
};

export function ConfirmMoney({ open, title, description, confirmLabel, tone, onConfirm, onCancel }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby="confirm-money-title"
      aria-describedby="confirm-money-description"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      onKeyDown={(e) => e.stopPropagation()}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-zinc-200 bg-white p-4 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
      data-testid="confirm-money"
    >
      {open && (
        <div className="space-y-3">
          <h2 id="confirm-money-title" className="font-semibold">
            {title}
          </h2>
          <p id="confirm-money-description" className="text-sm break-words text-zinc-700 dark:text-zinc-300">
            {description}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <button
              autoFocus
              onClick={onCancel}
              className="rounded-md border border-zinc-300 px-3 py-1.5 text-sm font-medium hover:bg-zinc-50 dark:border-zinc-600 dark:hover:bg-zinc-800"
            >
              Cancel
            </button>
            <button
              onClick={onConfirm}
              className={`rounded-md px-3 py-1.5 text-sm font-medium text-white ${tone === "release" ? "bg-emerald-700 hover:bg-emerald-600" : "bg-red-700 hover:bg-red-600"}`}
            >
              {confirmLabel}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}

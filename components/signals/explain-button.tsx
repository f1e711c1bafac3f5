"use client";
// A figure's explanation one click away: a small "?" button that opens a popover with the meaning
// in plain words and how it is counted. The browser's own popover: Enter or Space opens it, Escape
// or a click elsewhere closes it, the button announces itself expanded or not, and the popover sits
// in the top layer (a table that scrolls sideways does not clip it).
import { useId } from "react";
import type { Explanation } from "./signal-explanations";

export function ExplainButton({ label, explain }: { label: string; explain: Explanation }) {
  const id = useId();
  return (
    <>
      <button
        type="button"
        popoverTarget={id}
        aria-label={`What ${label} means`}
        data-testid="explain-button"
        className="ml-0.5 inline-flex h-4 w-4 shrink-0 items-center justify-center rounded-full border border-zinc-400 align-middle text-[10px] font-semibold leading-none text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-500 dark:text-zinc-300 dark:hover:bg-zinc-800"
      >
        ?
      </button>
      <div
        id={id}
        popover="auto"
        role="dialog"
        aria-label={label}
        data-testid="explanation"
        className="m-auto w-[min(22rem,calc(100vw-2rem))] rounded-lg border border-zinc-300 bg-white p-3 text-left text-sm font-normal normal-case tracking-normal text-zinc-800 shadow-lg backdrop:bg-black/20 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
      >
        <p className="font-semibold">{label}</p>
        <p className="mt-1 whitespace-normal">{explain.meaning}</p>
        <p className="mt-1 whitespace-normal text-zinc-600 dark:text-zinc-400">
          <span className="font-medium">How it is counted: </span>
          {explain.counted}
        </p>
        <button
          type="button"
          popoverTarget={id}
          popoverTargetAction="hide"
          className="mt-2 rounded-md border border-zinc-300 px-2 py-0.5 text-xs hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:border-zinc-700 dark:hover:bg-zinc-800"
        >
          Close
        </button>
      </div>
    </>
  );
}

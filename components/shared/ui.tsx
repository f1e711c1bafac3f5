// Small shared pieces of the control room's look.
"use client";
import { useState, type ReactNode } from "react";

type Tone = "zinc" | "green" | "red" | "amber" | "sky" | "violet";

/** A pod's status as a badge colour, the same on the overview and the pod page. */
export const statusTone = (status: string): Tone =>
  status === "active" ? "green" : status === "paused" ? "amber" : status === "closed" ? "red" : "zinc";

/** A pod is stale when no checkpoint came for its agreed cadence (30 minutes unless its scope said otherwise: docs/protocol/pods-and-modes.md#checkpoints-and-cadence). */
export const isStale = (at: string | null | undefined, cadenceMinutes = 30) =>
  !!at && Date.now() - new Date(at).getTime() > cadenceMinutes * 60_000;

export function Badge({
  children,
  tone = "zinc",
  title,
}: {
  children: ReactNode;
  tone?: Tone;
  title?: string;
}) {
  const tones = {
    zinc: "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300",
    green: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
    red: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
    amber: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300",
    sky: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
    violet: "bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300",
  };
  return (
    <span
      title={title}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-[11px] font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-zinc-300 p-6 text-center text-sm text-zinc-500 dark:border-zinc-700">
      {children}
    </div>
  );
}

/** A placeholder while something loads: a pulsing block that screen readers hear as a status with its label. */
export function Skeleton({ label, className }: { label: string; className: string }) {
  return (
    <div
      role="status"
      aria-label={label}
      className={`animate-pulse bg-zinc-200/70 dark:bg-zinc-800/70 ${className}`}
    />
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={`rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900 ${className}`}
    >
      {children}
    </div>
  );
}

export function Section({
  title,
  children,
  aside,
}: {
  title: string;
  children: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <section aria-label={title} className="space-y-2">
      <div className="flex items-center gap-2">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-zinc-500">{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** The newest `limit` items of a long list, with a button to show the rest. */
export function useLimited<T>(items: T[], limit: number): { shown: T[]; more: ReactNode } {
  const [all, setAll] = useState(false);
  if (all || items.length <= limit) return { shown: items, more: null };
  return {
    shown: items.slice(0, limit),
    more: (
      <button
        onClick={() => setAll(true)}
        className="w-full rounded-md py-1.5 text-xs text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        Show all {items.length}
      </button>
    ),
  };
}

"use client";
// The setup view: what a forming pod needs, each step a link to where it is done, and the one Start button.
import Link from "next/link";
import type { PodStateView } from "@/server/wire/views";
import { Section } from "../shared/ui";
import { setupSteps } from "./forming-needs";
import { StartPodButton } from "./pod-lifecycle";
import { linkWorks, useShareLinks } from "./use-share-links";

export function PodSetup({
  podId,
  state,
  canAdmin,
}: {
  podId: string;
  state: PodStateView;
  canAdmin: boolean;
}) {
  const steps = setupSteps(state);
  // Only a pod admin may list the links; for anyone else the step stays untouched (and unticked).
  const links = useShareLinks(podId, canAdmin);
  const shared = !!links.data?.some((l) => linkWorks(l, links.dataUpdatedAt));
  const where: Record<string, string | null> = {
    scope: null,
    agents: "?tab=members&section=agents",
    people: "?tab=members&section=people",
    start: null,
  };
  return (
    <Section title="Setup">
      <ol className="space-y-2" aria-label="Setup checklist" data-testid="setup-checklist">
        {steps.map((s) => (
          <li
            key={s.key}
            className="flex flex-wrap items-center gap-2 text-sm"
            data-testid={`setup-${s.key}`}
            data-done={s.done}
          >
            <span aria-hidden className={s.done ? "text-emerald-600 dark:text-emerald-400" : "text-zinc-400"}>
              {s.done ? "✓" : "○"}
            </span>
            <span className="sr-only">{s.done ? "done:" : "to do:"}</span>
            <span className={s.done ? "" : "font-medium"}>{s.label}</span>
            {!s.required && !s.done && <span className="text-xs text-zinc-500">(optional)</span>}
            {!s.done && where[s.key] && (
              <Link className="text-sm underline" href={where[s.key]!}>
                Go to Members
              </Link>
            )}
          </li>
        ))}
        <li
          className="flex flex-wrap items-center gap-2 text-sm"
          data-testid="setup-share-link"
          data-done={shared}
        >
          <span aria-hidden className={shared ? "text-emerald-600 dark:text-emerald-400" : "text-zinc-400"}>
            {shared ? "✓" : "○"}
          </span>
          <span className="sr-only">{shared ? "done:" : "to do:"}</span>
          <span>
            {shared ? "A share link lets onlookers watch" : "A share link for onlookers without an account"}
          </span>
          {!shared && <span className="text-xs text-zinc-500">(optional)</span>}
          {canAdmin && (
            <Link className="underline" href="?tab=members&section=sharing">
              Sharing
            </Link>
          )}
        </li>
      </ol>
      {state.scope && (
        <div className="mt-4 space-y-1 text-sm" data-testid="setup-agreed-scope">
          <p className="whitespace-pre-wrap break-words">{state.scope.scope}</p>
          <ul className="list-disc pl-5 text-zinc-700 dark:text-zinc-300">
            {state.scope.successCriteria.map((c, i) => (
              <li key={i} className="break-words">
                {c}
              </li>
            ))}
          </ul>
          <p className="text-zinc-500">
            Checkpoints every {state.scope.cadenceMinutes ?? 30} minutes; the pod shows as stale after that.
          </p>
        </div>
      )}
      {canAdmin && state.status === "forming" && (
        <div className="mt-4">
          <StartPodButton podId={podId} state={state} />
        </div>
      )}
      {state.status !== "forming" && (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">This pod is {state.status}.</p>
      )}
      {!canAdmin && state.status === "forming" && (
        <p className="mt-4 text-sm text-zinc-500">One of the pod&apos;s admins starts it.</p>
      )}
    </Section>
  );
}

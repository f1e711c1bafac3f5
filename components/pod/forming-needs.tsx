"use client";
// What a forming pod still needs before it can start, and what is only
// recommended: the setup view's checklist and the status line both read it.
import Link from "next/link";
import type { PodStateView } from "@/server/wire/views";

export type SetupStep = {
  key: "scope" | "agents" | "people" | "start";
  label: string;
  done: boolean;
  required: boolean;
};

export function setupSteps(state: PodStateView): SetupStep[] {
  const agents = state.members.filter((m) => m.kind === "agent").length;
  const people = state.members.filter((m) => m.kind === "human").length;
  return [
    {
      key: "scope",
      label: state.scope ? "Scope and success criteria agreed" : "Agree the scope and success criteria",
      done: !!state.scope,
      required: true,
    },
    {
      key: "agents",
      label: agents ? `${agents} agent${agents === 1 ? "" : "s"} added` : "Add the agents who do the work",
      done: agents > 0,
      required: false,
    },
    {
      key: "people",
      label: people > 1 ? `${people} people have access` : "Invite the people who approve or watch",
      done: people > 1,
      required: false,
    },
    {
      key: "start",
      label: state.status === "forming" ? "Start the pod" : "Started",
      done: state.status !== "forming",
      required: true,
    },
  ];
}

/** "Forming — waiting for …": the status line of a pod that has not started. It names only what the
 * pod needs to start (the scope); agents and people are optional, so it does not wait for them. */
export function FormingNotice({ state }: { state: PodStateView }) {
  if (state.status !== "forming") return null;
  const needsScope = setupSteps(state).some((s) => s.key === "scope" && !s.done);
  return (
    <span className="text-amber-800 dark:text-amber-300" data-testid="forming-notice">
      {needsScope ? "waiting for: an agreed scope · " : "ready to start · "}
      <Link href="?tab=setup" className="underline">
        setup
      </Link>
    </span>
  );
}

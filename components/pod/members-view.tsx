"use client";
// Who is on the pod, their access and roles, and the history of handoffs and role changes.
import type { PodStateView } from "@/server/wire/views";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Empty, Section, useLimited } from "../shared/ui";
import { AgentsPanel } from "./agents-panel";
import { PeoplePanel } from "./people-panel";

export function MembersView({
  podId,
  state,
  canAdmin = false,
  publicUrl = "",
}: {
  podId: string;
  state: PodStateView;
  canAdmin?: boolean;
  publicUrl?: string;
}) {
  const history = [
    ...state.handoffs.map((h) => ({ seq: h.seq, at: h.at, text: `${h.from} → ${h.to}: ${h.reason}` })),
    ...state.roleHistory.map((r) => ({
      seq: r.seq,
      at: r.at,
      text: `${r.memberId} ${r.action.replace("_", " ")} ${r.role}`,
    })),
  ].sort((a, b) => b.seq - a.seq);
  const { shown, more } = useLimited(history, 20);
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {canAdmin && (
        <div className="lg:col-span-2">
          <AgentsPanel podId={podId} state={state} publicUrl={publicUrl} />
        </div>
      )}
      {canAdmin && (
        <div className="lg:col-span-2">
          <PeoplePanel podId={podId} state={state} />
        </div>
      )}
      <Section
        title="Members"
        aside={state.activeAgent && <Badge tone="green">active: {state.activeAgent}</Badge>}
      >
        {state.members.length === 0 ? (
          <Empty>No members yet.</Empty>
        ) : (
          <ul
            className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
            data-testid="members"
          >
            {state.members.map((m) => (
              <li key={m.memberId} className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm">
                <span className="font-medium">{m.displayName}</span>
                <span className="font-mono text-xs text-zinc-500">{m.memberId}</span>
                <Badge tone={m.kind === "human" ? "violet" : "zinc"}>{m.kind}</Badge>
                {m.access && <Badge tone="amber">{m.access}</Badge>}
                {m.roles.map((r) => (
                  <Badge key={r} tone="sky">
                    {r}
                  </Badge>
                ))}
                {state.activeAgent === m.memberId && <Badge tone="green">active</Badge>}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Handoffs and role changes">
        {history.length === 0 ? (
          <Empty>No handoffs yet.</Empty>
        ) : (
          <ol className="space-y-1 text-sm">
            {shown.map((x, i) => (
              <li key={i} className="flex gap-2">
                <a
                  href={`?tab=tape#seq-${x.seq}`}
                  className="font-mono text-xs text-zinc-500 hover:underline"
                >
                  #{x.seq}
                </a>
                <span className="min-w-0 break-words">{x.text}</span>
                <span className="ml-auto shrink-0 text-xs text-zinc-500">
                  <RelativeTime iso={x.at} />
                </span>
              </li>
            ))}
            {more}
          </ol>
        )}
      </Section>
    </div>
  );
}

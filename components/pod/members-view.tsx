"use client";
// The Members tab's Agents section: the pod's agents (each once, with their roles; tokens for the pod's
// admins), hand-off and role rotation for approvers, and the history of both.
import type { PodStateView } from "@/server/wire/views";
import { RelativeTime } from "../shared/relative-time";
import { Empty, Section, useLimited } from "../shared/ui";
import { AgentsPanel } from "./agents-panel";
import { MemberControls } from "./steer-controls";

export function AgentsSection({
  podId,
  state,
  canAct,
  canAdmin,
  publicUrl,
}: {
  podId: string;
  state: PodStateView;
  canAct: boolean;
  canAdmin: boolean;
  publicUrl: string;
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
    <div className="space-y-6">
      <AgentsPanel podId={podId} state={state} publicUrl={publicUrl} canAdmin={canAdmin} />
      {canAct && <MemberControls podId={podId} state={state} />}
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

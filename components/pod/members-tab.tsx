"use client";
// The Members tab: one section at a time behind a sub-navigation (Agents · People · Sharing · Tool
// policies · Budgets · Webhooks), WAI-ARIA tabs kept in the URL (?tab=members&section=…) so a link
// opens the right one. Its code loads when the tab is first opened (./pod-view.tsx), not with the board.
import { useRef } from "react";
import { useRouter, useSearchParams } from "next/navigation";
import type { PodStateView } from "@/server/wire/views";
import { AgentsSection } from "./members-view";
import { PeoplePanel } from "./people-panel";
import { ShareLinksPanel } from "./share-links-panel";
import { tabForKey } from "./pod-tabs";
import { WebhooksPanel } from "../webhooks/webhooks-panel";
import { ToolPoliciesPanel } from "../gates/tool-policies-panel";
import { BudgetsPanel } from "../budgets/budgets-panel";

type Props = { podId: string; state: PodStateView; canAct: boolean; canAdmin: boolean; publicUrl: string };

const SECTIONS: { id: string; label: string; admins?: boolean; body: (p: Props) => React.ReactNode }[] = [
  { id: "agents", label: "Agents", body: (p) => <AgentsSection {...p} /> },
  {
    id: "people",
    label: "People",
    body: (p) => <PeoplePanel podId={p.podId} state={p.state} canAdmin={p.canAdmin} />,
  },
  { id: "sharing", label: "Sharing", admins: true, body: (p) => <ShareLinksPanel podId={p.podId} /> },
  {
    id: "tool-policies",
    label: "Tool policies",
    body: (p) => <ToolPoliciesPanel podId={p.podId} state={p.state} canAdmin={p.canAdmin} />,
  },
  {
    id: "budgets",
    label: "Budgets",
    body: (p) => <BudgetsPanel podId={p.podId} state={p.state} canAct={p.canAct} />,
  },
  { id: "webhooks", label: "Webhooks", admins: true, body: (p) => <WebhooksPanel podId={p.podId} /> },
];

export function MembersTab(props: Props) {
  const params = useSearchParams();
  const router = useRouter();
  const sections = SECTIONS.filter((s) => !s.admins || props.canAdmin);
  const current = sections.find((s) => s.id === params.get("section")) ?? sections[0]!;
  const tabs = useRef(new Map<string, HTMLButtonElement>());
  const open = (id: string) => router.replace(`?tab=members&section=${id}`, { scroll: false });
  const onKey = (e: React.KeyboardEvent, index: number) => {
    const next = tabForKey(e.key, index, sections.length);
    if (next === null) return;
    e.preventDefault();
    open(sections[next]!.id);
    tabs.current.get(sections[next]!.id)?.focus();
  };
  return (
    <div className="space-y-4">
      <div
        role="tablist"
        aria-label="Members sections"
        className="flex flex-wrap gap-1 rounded-lg bg-zinc-100 p-1 dark:bg-zinc-900"
      >
        {sections.map((s, i) => (
          <button
            key={s.id}
            ref={(el) => {
              if (el) tabs.current.set(s.id, el);
              else tabs.current.delete(s.id);
            }}
            role="tab"
            type="button"
            id={`members-tab-${s.id}`}
            aria-selected={s === current}
            aria-controls={s === current ? `members-panel-${s.id}` : undefined}
            tabIndex={s === current ? 0 : -1}
            onClick={() => open(s.id)}
            onKeyDown={(e) => onKey(e, i)}
            className={`rounded-md px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-sky-600 ${s === current ? "bg-white font-medium text-zinc-900 shadow-sm dark:bg-zinc-700 dark:text-zinc-50" : "text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-50"}`}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`members-panel-${current.id}`} aria-labelledby={`members-tab-${current.id}`}>
        {current.body(props)}
      </div>
    </div>
  );
}

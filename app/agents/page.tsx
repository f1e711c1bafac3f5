import type { Metadata } from "next";
import { requireViewer } from "@/server/web/current-identity";
import { AgentsOverview } from "@/components/signals/agents-overview";

export const metadata: Metadata = { title: "Agents" };
export const dynamic = "force-dynamic";

export default async function AgentsPage() {
  await requireViewer("/agents");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-xl font-semibold tracking-tight">Agents</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every agent in your pods: how its work fared, how it reviewed, whether it kept the cadence, and what
          it cost — counted from the tape, no score.
        </p>
      </div>
      <AgentsOverview />
    </div>
  );
}

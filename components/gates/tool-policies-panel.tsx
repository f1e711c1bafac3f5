"use client";
// Gated tools on the pod page: the pod's tool policy and each agent's. Pod admins edit them;
// everyone else reads them (what an agent may run is no secret from those who watch it).
import { useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import { inputClass } from "../pod/form-styles";
import { Badge, Empty, Section } from "../shared/ui";
import { draftOf, policiesOf } from "./policy-draft";
import { ToolPolicyEditor } from "./tool-policy-editor";

const POD = "";

export function ToolPoliciesPanel({
  podId,
  state,
  canAdmin,
}: {
  podId: string;
  state: PodStateView;
  canAdmin: boolean;
}) {
  const [scope, setScope] = useState(POD);
  const [savedScope, setSavedScope] = useState<string | null>(null);
  const agents = state.members.filter((m) => m.kind === "agent");
  const agentId = scope === POD ? undefined : scope;
  const { policies, recordPrompts } = state.toolPolicies;
  const policy = policiesOf(state.toolPolicies, agentId);
  const saved = policy ? `set by ${policy.by} at #${policy.seq}` : "not set";

  return (
    <Section
      title="Tool policies"
      aside={
        <Badge tone={recordPrompts ? "zinc" : "violet"}>
          {recordPrompts ? "prompts recorded" : "prompt text kept off the tape"}
        </Badge>
      }
    >
      <div
        className="space-y-3 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
        data-testid="tool-policies"
      >
        <div className="flex flex-wrap items-center gap-2">
          <label className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">Policy for</span>
            <select
              value={scope}
              onChange={(e) => (setScope(e.target.value), setSavedScope(null))}
              className={inputClass}
            >
              <option value={POD}>the whole pod (every agent)</option>
              {agents.map((a) => (
                <option key={a.memberId} value={a.memberId}>
                  agent {a.displayName} ({a.memberId}){policies.agents[a.memberId] ? " · own rules" : ""}
                </option>
              ))}
            </select>
          </label>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">{saved}</span>
          {savedScope === scope && (
            <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
              Saved on the tape.
            </p>
          )}
        </div>
        {canAdmin ? (
          // Keyed by scope and the stored policy's seq: a save (here or by another admin) starts from what is stored.
          <ToolPolicyEditor
            key={`${scope}@${policy?.seq ?? 0}:${recordPrompts}`}
            podId={podId}
            agentId={agentId}
            initial={draftOf(policy, recordPrompts)}
            onSaved={() => setSavedScope(scope)}
          />
        ) : !policy || policy.rules.length === 0 ? (
          <Empty>
            No tool rules{agentId ? " of its own" : ""}: tool calls go ahead. A pod admin sets them.
          </Empty>
        ) : (
          <ol className="space-y-1 text-sm" aria-label="Rules, first match wins">
            {policy.rules.map((r) => (
              <li key={r.id} className="break-words font-mono text-xs" data-testid="policy-rule-read">
                {r.tool}
                {r.input ? ` ${r.outside ? "outside" : "matching"} ${r.input}` : ""} → {r.action}
              </li>
            ))}
          </ol>
        )}
      </div>
    </Section>
  );
}

"use client";
// Tokens and cost each agent spent per model (a model no price list knows reads "unknown model").
import type { PodStateView } from "@/server/wire/views";
import { Section } from "../shared/ui";
import { costText, totalText } from "./usage-cost";

const count = (n: number) => n.toLocaleString("en-US");

export function UsageTable({ usage, names }: { usage: PodStateView["usage"]; names: Map<string, string> }) {
  if (usage.length === 0)
    return (
      <Section title="Usage">
        <p className="text-sm text-zinc-500">
          No token usage reported yet (Claude Code reports it at each Stop).
        </p>
      </Section>
    );
  const th = "px-2 py-1.5 text-left font-medium text-zinc-600 dark:text-zinc-400";
  const td = "px-2 py-1.5 tabular-nums";
  return (
    <Section title="Usage" aside={<span className="text-xs text-zinc-500">{totalText(usage)}</span>}>
      {/* Focusable, so a keyboard can scroll the table sideways on a phone. */}
      <div
        tabIndex={0}
        role="region"
        aria-label="Usage per agent and model"
        className="overflow-x-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      >
        <table className="w-full min-w-[36rem] text-sm" data-testid="usage-table">
          <caption className="sr-only">Tokens and cost per agent and model</caption>
          <thead className="border-b border-zinc-200 text-xs dark:border-zinc-800">
            <tr>
              <th scope="col" className={th}>
                Agent
              </th>
              <th scope="col" className={th}>
                Model
              </th>
              <th scope="col" className={`${th} text-right`}>
                In
              </th>
              <th scope="col" className={`${th} text-right`}>
                Out
              </th>
              <th scope="col" className={`${th} text-right`}>
                Cache read
              </th>
              <th scope="col" className={`${th} text-right`}>
                Cache write
              </th>
              <th scope="col" className={`${th} text-right`}>
                Cost
              </th>
            </tr>
          </thead>
          <tbody>
            {usage.map((u) => (
              <tr
                key={`${u.agentId}/${u.model}`}
                className="border-b border-zinc-100 last:border-0 dark:border-zinc-800"
              >
                <th scope="row" className="px-2 py-1.5 text-left font-medium">
                  {names.get(u.agentId) ?? u.agentId}
                </th>
                <td className={`${td} font-mono text-xs`}>{u.model}</td>
                <td className={`${td} text-right`}>{count(u.inputTokens)}</td>
                <td className={`${td} text-right`}>{count(u.outputTokens)}</td>
                <td className={`${td} text-right`}>{count(u.cacheReadTokens)}</td>
                <td className={`${td} text-right`}>{count(u.cacheWriteTokens)}</td>
                <td className={`${td} text-right`} data-testid="usage-cost">
                  {costText(u)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

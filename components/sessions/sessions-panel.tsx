"use client";
// The pod's agent sessions (Claude Code, OpenTelemetry): who, how, where, how busy; and the
// tokens and cost each agent spent per model. Read from /state, which refetches as the tape moves.
import type { PodStateView } from "@/server/wire/views";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Card, Empty, Section, useLimited } from "../shared/ui";

type Session = PodStateView["sessions"][number];
const count = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => (n === 0 ? "—" : `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`);
/** A model no price list knows is never shown as free: its reports came without a cost. */
const costText = (u: { costUsd: number; unpriced: number }) =>
  u.unpriced === 0 ? usd(u.costUsd) : u.costUsd === 0 ? "unknown model" : `${usd(u.costUsd)} + unknown`;

export function SessionsPanel({ state }: { state: PodStateView }) {
  if (state.sessions.length === 0 && state.usage.length === 0)
    return (
      <Empty>
        No agent sessions yet —{" "}
        <a href="?tab=members" className="font-medium text-sky-700 underline dark:text-sky-400">
          connect Claude Code
        </a>
        : add an agent on the Members tab and paste its hooks config (the README&apos;s &quot;Connect Claude
        Code&quot;).
      </Empty>
    );
  const names = new Map(state.members.map((m) => [m.memberId, m.displayName]));
  return (
    <div className="space-y-6" data-testid="sessions-panel">
      <SessionList sessions={state.sessions} names={names} />
      <UsageTable usage={state.usage} names={names} />
    </div>
  );
}

function SessionList({ sessions, names }: { sessions: Session[]; names: Map<string, string> }) {
  const { shown, more } = useLimited(sessions, 20);
  return (
    <Section
      title="Agent sessions"
      aside={
        <span className="text-xs text-zinc-500">{sessions.length} latest, most recently active first</span>
      }
    >
      <ul className="space-y-2">
        {shown.map((s) => (
          <li key={JSON.stringify([s.agentId, s.sessionId])} data-testid="session" data-session={s.sessionId}>
            <Card>
              <div className="flex flex-wrap items-center gap-2 text-sm">
                <span className="font-medium">{names.get(s.agentId) ?? s.agentId}</span>
                <Badge tone={s.ended ? "zinc" : "green"}>{s.ended ? "ended" : "active"}</Badge>
                <span className="text-zinc-600 dark:text-zinc-400">
                  via {s.via}
                  {s.model && (
                    <>
                      {" "}
                      · <span className="font-mono">{s.model}</span>
                    </>
                  )}
                </span>
                <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
                  started <RelativeTime iso={s.at} />
                  {s.ended ? (
                    <>
                      {" "}
                      · ended <RelativeTime iso={s.ended.at} />
                      {s.ended.reason && ` (${s.ended.reason})`}
                    </>
                  ) : (
                    <>
                      {" "}
                      · last seen <RelativeTime iso={s.last.at} />
                    </>
                  )}
                </span>
              </div>
              {s.cwd && (
                <p className="mt-1 truncate font-mono text-xs text-zinc-600 dark:text-zinc-400" title={s.cwd}>
                  {s.cwd}
                </p>
              )}
              <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
                <dl className="flex flex-wrap gap-x-4 gap-y-1">
                  <Stat label="Prompts" value={s.prompts} />
                  <Stat label="Tool calls" value={s.toolCalls} />
                  <Stat label="Failed" value={s.failedToolCalls} warn={s.failedToolCalls > 0} />
                  {s.subagents > 0 && <Stat label="Subagents" value={s.subagents} />}
                  {s.compactions > 0 && <Stat label="Compactions" value={s.compactions} />}
                </dl>
                <a
                  href={`?tab=tape&seq=${s.seq}`}
                  className="ml-auto text-sky-700 hover:underline dark:text-sky-400"
                >
                  On the tape #{s.seq}
                </a>
              </div>
            </Card>
          </li>
        ))}
      </ul>
      {more}
    </Section>
  );
}

function Stat({ label, value, warn = false }: { label: string; value: number; warn?: boolean }) {
  return (
    <div className="flex gap-1" data-testid={`session-${label.toLowerCase().replace(" ", "-")}`}>
      <dt className="text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className={`font-medium tabular-nums ${warn ? "text-red-700 dark:text-red-400" : ""}`}>
        {count(value)}
      </dd>
    </div>
  );
}

function UsageTable({ usage, names }: { usage: PodStateView["usage"]; names: Map<string, string> }) {
  if (usage.length === 0)
    return (
      <Section title="Usage">
        <p className="text-sm text-zinc-500">
          No token usage reported yet (Claude Code reports it at each Stop).
        </p>
      </Section>
    );
  const total = usage.reduce((a, u) => a + u.costUsd, 0);
  const unknown = usage.filter((u) => u.unpriced > 0).length;
  const th = "px-2 py-1.5 text-left font-medium text-zinc-600 dark:text-zinc-400";
  const td = "px-2 py-1.5 tabular-nums";
  return (
    <Section
      title="Usage"
      aside={
        <span className="text-xs text-zinc-500">
          total {usd(total)}
          {unknown > 0 && ` (not counting ${unknown} of unknown cost)`}
        </span>
      }
    >
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

"use client";
// The pod's agent sessions (Claude Code, OpenTelemetry): who, how, where, how busy; and the
// tokens and cost each agent spent per model. Read from /state, which refetches as the tape moves.
import type { PodStateView } from "@/server/wire/views";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Card, Empty, Section, useLimited } from "../shared/ui";
import { UnmappedTelemetry } from "./unmapped-telemetry";
import { UsageTable } from "./usage-table";
import { SessionSteer } from "./session-steer";

type Session = PodStateView["sessions"][number];
const count = (n: number) => n.toLocaleString("en-US");

/** `canAct`: the reader is one of the pod's approvers (they may steer a session). */
export function SessionsPanel({
  podId,
  state,
  canAct = false,
}: {
  podId: string;
  state: PodStateView;
  canAct?: boolean;
}) {
  const unmapped = <UnmappedTelemetry podId={podId} seq={state.seq} />;
  if (state.sessions.length === 0 && state.usage.length === 0)
    return (
      <div className="space-y-6">
        <Empty>
          No agent sessions yet —{" "}
          <a href="?tab=members" className="font-medium text-sky-700 underline dark:text-sky-400">
            connect Claude Code
          </a>
          : add an agent on the Members tab and paste its hooks config (the README&apos;s &quot;Connect Claude
          Code&quot;, or docs/agents/ for Codex and Gemini CLI).
        </Empty>
        {unmapped}
      </div>
    );
  const names = new Map(state.members.map((m) => [m.memberId, m.displayName]));
  return (
    <div className="space-y-6" data-testid="sessions-panel">
      <SessionList sessions={state.sessions} names={names} steer={{ podId, canAct }} />
      <UsageTable usage={state.usage} names={names} />
      {unmapped}
    </div>
  );
}

/** A key for a session: a session id is its agent's, so two agents' ids never meet. */
const keyOf = (agentId: string, sessionId: string) => JSON.stringify([agentId, sessionId]);

type SteerProps = { podId: string; canAct: boolean };

function SessionList({
  sessions,
  names,
  steer,
}: {
  sessions: Session[];
  names: Map<string, string>;
  steer: SteerProps;
}) {
  // A subagent's session sits under its parent's (when the parent is still listed), most recent first.
  const known = new Set(sessions.map((s) => keyOf(s.agentId, s.sessionId)));
  const subsOf = new Map<string, Session[]>();
  const top: Session[] = [];
  for (const s of sessions) {
    const parent = s.parentSessionId ? keyOf(s.agentId, s.parentSessionId) : null;
    if (parent && known.has(parent)) subsOf.set(parent, [...(subsOf.get(parent) ?? []), s]);
    else top.push(s);
  }
  const { shown, more } = useLimited(top, 20);
  return (
    <Section
      title="Agent sessions"
      aside={
        <span className="text-xs text-zinc-500">{sessions.length} latest, most recently active first</span>
      }
    >
      <ul className="space-y-2">
        {shown.map((s) => (
          <SessionItem
            key={keyOf(s.agentId, s.sessionId)}
            s={s}
            names={names}
            subsOf={subsOf}
            steer={steer}
          />
        ))}
      </ul>
      {more}
    </Section>
  );
}

function SessionItem({
  s,
  names,
  subsOf,
  steer,
}: {
  s: Session;
  names: Map<string, string>;
  subsOf: Map<string, Session[]>;
  steer: SteerProps;
}) {
  const subs = subsOf.get(keyOf(s.agentId, s.sessionId)) ?? [];
  return (
    <li>
      {/* The card alone carries the test id: a subagent's card is nested in the item, not in the card. */}
      <div data-testid="session" data-session={s.sessionId}>
        <SessionCard s={s} names={names} steer={steer} />
      </div>
      {subs.length > 0 && (
        <ul
          className="mt-2 ml-4 space-y-2 border-l border-zinc-200 pl-3 dark:border-zinc-800"
          aria-label={`Subagents of session ${s.sessionId}`}
        >
          {subs.map((c) => (
            <SessionItem
              key={keyOf(c.agentId, c.sessionId)}
              s={c}
              names={names}
              subsOf={subsOf}
              steer={steer}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

function SessionCard({ s, names, steer }: { s: Session; names: Map<string, string>; steer: SteerProps }) {
  return (
    <Card>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{names.get(s.agentId) ?? s.agentId}</span>
        {s.parentSessionId && (
          <span data-testid="session-subagent">
            <Badge tone="violet">subagent{s.agentType ? `: ${s.agentType}` : ""}</Badge>
          </span>
        )}
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
        <a href={`?tab=tape&seq=${s.seq}`} className="ml-auto text-sky-700 hover:underline dark:text-sky-400">
          On the tape #{s.seq}
        </a>
      </div>
      <SessionSteer podId={steer.podId} session={s} canAct={steer.canAct} />
    </Card>
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

// The agents' own telemetry (OTLP log records and metric points named claude_code.*, codex.*,
// gemini_cli.*) as the events their hooks make: pure, so the same record always gives the same
// events with the same ids (an exporter's retry stores nothing twice; ingest seals each id with
// the installation's secret). Any record of a known name that names its session also opens that
// session, as the agent's (`via`): one start per session, whichever record arrives first. A name
// no mapping knows is returned as unmapped, for the door to count and show, never dropped unseen.
import { ZId } from "../domain/events/seed-formats";
import type { AgentKind } from "../domain/vocabulary";
import type { TEventInput } from "../wire/events";
import { systemEventName } from "../shared/system-event-ids";
import { runSteps } from "../domain/plan-append";
import type { AgentRecord } from "./agent-records";
import { isoTime } from "./genai-spans";
import { RecordView, type Draft, type RecordMapping, type TelemetryContext } from "./telemetry-kit";
import { claudeCodeLogs, claudeCodeMetrics } from "./claude-code-telemetry";
import { codexLogs, codexMetrics } from "./codex-telemetry";
import { geminiCliLogs, geminiCliMetrics } from "./gemini-cli-telemetry";

export type MappedRecord = { record: AgentRecord; events: TEventInput[] };
export type RecordsMapping = { mapped: MappedRecord[]; unmapped: AgentRecord[] };

type Agent = {
  prefix: string;
  kind: AgentKind;
  logs: Record<string, RecordMapping>;
  metrics: Record<string, RecordMapping>;
  /** Whether a metric of a session opens it (as a log record does). */
  metricsOpenSessions?: false;
};
const AGENTS: Agent[] = [
  { prefix: "claude_code.", kind: "claude-code", logs: claudeCodeLogs, metrics: claudeCodeMetrics },
  { prefix: "codex.", kind: "codex", logs: codexLogs, metrics: codexMetrics },
  // Its logs always open the session with their config record, which names the model; its metrics
  // are exported apart and may arrive first, and a session they opened would keep no model (the
  // config's start would then be the same event again).
  {
    prefix: "gemini_cli.",
    kind: "gemini-cli",
    logs: geminiCliLogs,
    metrics: geminiCliMetrics,
    metricsOpenSessions: false,
  },
];
/** The attributes that tell two records of one name and time apart. */
const DISTINCT = [
  "event.sequence",
  "prompt.id",
  "prompt_id",
  "tool_use_id",
  "call_id",
  "tool_name",
  "function_name",
  "model",
  "type",
];

export const mapAgentRecords = (records: AgentRecord[], ctx: TelemetryContext) =>
  runSteps(mapAgentRecordSteps(records, ctx));

/** One step per record: a large export is mapped in slices (server/db/time-slices.ts). */
export function* mapAgentRecordSteps(
  records: AgentRecord[],
  ctx: TelemetryContext,
): Generator<void, RecordsMapping> {
  const mapped: MappedRecord[] = [];
  const unmapped: AgentRecord[] = [];
  for (const record of records) {
    yield;
    const agent = AGENTS.find((a) => record.name.startsWith(a.prefix));
    const table = agent && (record.signal === "log" ? agent.logs : agent.metrics);
    const mapping =
      table && Object.hasOwn(table, record.name.slice(agent.prefix.length))
        ? table[record.name.slice(agent.prefix.length)]!
        : null;
    const view = new RecordView(record);
    const drafts = mapping?.(view, ctx) ?? null;
    if (drafts === null || !agent) {
      unmapped.push(record);
      continue;
    }
    const opens = record.signal === "log" || agent.metricsOpenSessions !== false;
    const events = eventsOf(view, agent.kind, drafts, ctx, opens);
    if (events.length) mapped.push({ record, events });
  }
  return { mapped, unmapped };
}

/** `opens`: a record of the session that has no start of its own opens it. */
function eventsOf(
  r: RecordView,
  kind: AgentKind,
  drafts: Draft[],
  ctx: TelemetryContext,
  opens: boolean,
): TEventInput[] {
  const session = r.text("session.id") ?? r.text("conversation.id");
  const sessionId = session && ZId.safeParse(session).success ? session : undefined;
  const record = r.record;
  const distinct = DISTINCT.map((k) => r.text(k) ?? "").join("\n");
  const recordKey = `${record.signal}\n${record.name}\n${record.timeNs}\n${distinct}`;
  const all =
    opens && sessionId && !drafts.some((d) => d.type === "session.started")
      ? [
          { key: "session.started", perSession: true, type: "session.started", body: { via: kind } } as Draft,
          ...drafts,
        ]
      : drafts;
  return all.map((d) => {
    const scope = d.perSession || d.key.startsWith("tool\n") ? "session" : recordKey;
    const ts = isoTime(d.atNs ?? record.timeNs);
    return {
      id: systemEventName(`otlp-agent\n${ctx.podId}\n${ctx.actor}\n${sessionId ?? ""}\n${scope}\n${d.key}`),
      type: d.type,
      actor: ctx.actor,
      ...(sessionId ? { sessionId } : {}),
      ...(ts ? { ts } : {}),
      body: d.body,
    } as TEventInput;
  });
}

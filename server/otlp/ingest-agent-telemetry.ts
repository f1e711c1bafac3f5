// One OTLP logs or metrics export into a pod's tape, as the token's member: its records read
// (agent-records.ts), mapped to the events the agents' hooks make (agent-telemetry.ts), then
// stored as any signal's items are (ingest-mapped.ts). What no mapping knows comes back unmapped.
import type { AppendAsCaller } from "../tape/append-events";
import type { SystemEventIds } from "../shared/system-event-ids";
import { TimeSlices } from "../db/time-slices";
import type { AgentRecord } from "./agent-records";
import { mapAgentRecordSteps } from "./agent-telemetry";
import { ingestMapped, type IngestOutcome } from "./ingest-mapped";
import type { TelemetryContext } from "./telemetry-kit";

export type TelemetryOutcome = IngestOutcome & { unmapped: AgentRecord[] };

export async function ingestAgentTelemetry(
  append: AppendAsCaller,
  ctx: TelemetryContext,
  records: AgentRecord[],
  seal: SystemEventIds,
  slices = new TimeSlices(),
): Promise<TelemetryOutcome> {
  const { mapped, unmapped } = await slices.run(mapAgentRecordSteps(records, ctx));
  const items = mapped.map(({ record, events }) => ({
    label: `${record.signal} record ${record.name}`,
    events,
  }));
  return { ...(await ingestMapped(append, ctx.podId, items, seal, slices)), unmapped };
}

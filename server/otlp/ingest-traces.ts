// One OTLP traces export into a pod's tape, as the token's member: its spans mapped to events
// (genai-spans.ts), then stored as ingest-mapped.ts stores any signal's items.
import type { AppendAsCaller } from "../tape/append-events";
import type { SystemEventIds } from "../shared/system-event-ids";
import { mapGenAiSpanSteps, type MappingContext } from "./genai-spans";
import { TimeSlices } from "../db/time-slices";
import type { OtlpSpan } from "./otlp-span";
import { ingestMapped } from "./ingest-mapped";

export type IngestResult = { stored: number; ignored: OtlpSpan[]; rejected: number; problem: string | null };

/** Mapped and checked in slices: an export of 10,000 spans never holds the event loop for long. */
export async function ingestTraces(
  append: AppendAsCaller,
  ctx: MappingContext,
  spans: OtlpSpan[],
  seal: SystemEventIds,
  slices = new TimeSlices(),
): Promise<IngestResult> {
  const { mapped, ignored } = await slices.run(mapGenAiSpanSteps(spans, ctx));
  const items = mapped.map(({ span, events }) => ({ label: `span ${span.spanId} (${span.name})`, events }));
  return { ...(await ingestMapped(append, ctx.podId, items, seal, slices)), ignored };
}

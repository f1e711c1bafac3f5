// One OTLP export into a pod's tape, as the token's member. The events of all its spans are
// appended as one batch (one transaction, all or nothing), but one bad span must not sink the
// export: each span's events are checked against the event schemas first and a span that fails
// is refused on its own (partial success); if the domain then refuses the batch (a rule, e.g. too
// many models), each span is appended on its own and those refused are counted the same way. A
// pod that takes no events at all (closed) refuses the whole export. Each event's id is its span's
// name sealed with the installation's secret, so another member cannot take it first.
import { AppError } from "../domain/errors";
import { ZEventInput, type TEvent } from "../wire/events";
import type { AppendAsCaller } from "../tape/append-events";
import type { SystemEventIds } from "../shared/system-event-ids";
import { mapGenAiSpanSteps, type MappingContext } from "./genai-spans";
import { TimeSlices } from "../db/time-slices";
import type { OtlpSpan } from "./otlp-span";

export type IngestResult = { stored: number; ignored: OtlpSpan[]; rejected: number; problem: string | null };
type Ready = { span: OtlpSpan; events: TEvent[] };

const POD_WIDE = new Set(["pod_closed"]);

/** Mapped and checked in slices: an export of 10,000 spans never holds the event loop for long. */
export async function ingestTraces(
  append: AppendAsCaller,
  ctx: MappingContext,
  spans: OtlpSpan[],
  seal: SystemEventIds,
  slices = new TimeSlices(),
): Promise<IngestResult> {
  const { mapped, ignored } = await slices.run(mapGenAiSpanSteps(spans, ctx));
  const ready: Ready[] = [];
  let rejected = 0;
  let problem: string | null = null;
  const seen = new Set<string>();
  for (const { span, events } of mapped) {
    await slices.pause();
    const parsed = events.map((e) => ZEventInput.safeParse({ ...e, id: seal(e.id!) }));
    const bad = parsed.find((p) => !p.success);
    if (bad && !bad.success) {
      rejected++;
      const issue = bad.error.issues[0]!;
      problem ??= `span ${span.spanId} (${span.name}): ${issue.path.join(".") || "(event)"}: ${issue.message}`;
      continue;
    }
    // The same span twice in one export (a sender's duplicate) is one span: its ids are the same.
    const fresh = parsed.map((p) => p.data as TEvent).filter((e) => !seen.has(e.id!));
    fresh.forEach((e) => seen.add(e.id!));
    if (fresh.length) ready.push({ span, events: fresh });
  }
  const all = ready.flatMap((r) => r.events);
  if (!all.length) return { stored: 0, ignored, rejected, problem };
  try {
    await append(ctx.podId, all);
    return { stored: ready.length, ignored, rejected, problem };
  } catch (e) {
    if (!isSpanRule(e)) throw e;
  }
  let stored = 0;
  for (const r of ready) {
    try {
      await append(ctx.podId, r.events);
      stored++;
    } catch (e) {
      if (!isSpanRule(e)) throw e;
      rejected++;
      problem ??= `span ${r.span.spanId} (${r.span.name}): ${(e as AppError).message}`;
    }
  }
  return { stored, ignored, rejected, problem };
}

/** A domain rule broken by some events (409/422), not the pod refusing everything. */
const isSpanRule = (e: unknown) =>
  e instanceof AppError && (e.status === 409 || e.status === 422) && !POD_WIDE.has(e.code);

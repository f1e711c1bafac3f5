// Mapped OTLP items (spans, log records, metric points) into a pod's tape, as the token's member.
// The events of all items are appended as one batch (one transaction, all or nothing), but one bad
// item must not sink the export: each item's events are checked against the event schemas first
// and an item that fails is refused on its own (partial success); if the domain then refuses the
// batch (a rule, e.g. too many models), each item is appended on its own and those refused are
// counted the same way. A pod that takes no events at all (closed) refuses the whole export. Each
// event's id is a name that is sealed here with the installation's secret, so another member
// cannot take it first.
import { AppError } from "../domain/errors";
import { ZEventInput, type TEvent, type TEventInput } from "../wire/events";
import type { AppendAsCaller } from "../tape/append-events";
import type { SystemEventIds } from "../shared/system-event-ids";
import { TimeSlices } from "../db/time-slices";

/** One item of an export and its events; `label` names it in a refusal ("span 0af7… (chat)"). */
export type MappedItem = { label: string; events: TEventInput[] };
export type IngestOutcome = { stored: number; rejected: number; problem: string | null };
type Ready = { label: string; events: TEvent[] };

const POD_WIDE = new Set(["pod_closed"]);

/** Checked and appended in slices: an export of 10,000 items never holds the event loop for long. */
export async function ingestMapped(
  append: AppendAsCaller,
  podId: string,
  items: MappedItem[],
  seal: SystemEventIds,
  slices = new TimeSlices(),
): Promise<IngestOutcome> {
  const ready: Ready[] = [];
  let rejected = 0;
  let problem: string | null = null;
  const seen = new Set<string>();
  for (const { label, events } of items) {
    await slices.pause();
    const parsed = events.map((e) => ZEventInput.safeParse({ ...e, id: seal(e.id!) }));
    const bad = parsed.find((p) => !p.success);
    if (bad && !bad.success) {
      rejected++;
      const issue = bad.error.issues[0]!;
      problem ??= `${label}: ${issue.path.join(".") || "(event)"}: ${issue.message}`;
      continue;
    }
    // The same event twice in one export (a sender's duplicate, a session's start) is one event: its ids are the same.
    const fresh = parsed.map((p) => p.data as TEvent).filter((e) => !seen.has(e.id!));
    fresh.forEach((e) => seen.add(e.id!));
    if (fresh.length) ready.push({ label, events: fresh });
  }
  const all = ready.flatMap((r) => r.events);
  if (!all.length) return { stored: 0, rejected, problem };
  try {
    await append(podId, all);
    return { stored: ready.length, rejected, problem };
  } catch (e) {
    if (!isItemRule(e)) throw e;
  }
  let stored = 0;
  for (const r of ready) {
    try {
      await append(podId, r.events);
      stored++;
    } catch (e) {
      if (!isItemRule(e)) throw e;
      rejected++;
      problem ??= `${r.label}: ${(e as AppError).message}`;
    }
  }
  return { stored, rejected, problem };
}

/** A domain rule broken by some events (409/422), not the pod refusing everything. */
const isItemRule = (e: unknown) =>
  e instanceof AppError && (e.status === 409 || e.status === 422) && !POD_WIDE.has(e.code);

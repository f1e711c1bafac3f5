// POST /events' batch, checked against the wire's schema in slices: zod on 1,000 events is one
// step of tens of milliseconds, so each event is parsed on its own (ZEventInput, as ZEventBatch
// would) with the event loop given back between slices (server/db/time-slices.ts). The answer is
// what parsing the batch whole gives: the parsed events, or a 400 listing every issue by its path.
import { z } from "zod";
import { AppError, type ErrorIssue } from "../domain/errors";
import { TimeSlices } from "../db/time-slices";
import { MAX_EVENTS_PER_REQUEST, ZEventBatch, ZEventInput, type TEvent } from "../wire/events";
import { parseWith } from "./json";

const ZEnvelope = z.object({ events: z.array(z.unknown()).min(1).max(MAX_EVENTS_PER_REQUEST) });

export async function parseEventBatch(body: unknown, slices = new TimeSlices()): Promise<TEvent[]> {
  const envelope = ZEnvelope.safeParse(body);
  // Not a list of 1 to 1,000: the batch schema says so, as it always did.
  if (!envelope.success) return parseWith(ZEventBatch, body).events;
  const events: TEvent[] = [];
  const issues: ErrorIssue[] = [];
  for (const [i, value] of envelope.data.events.entries()) {
    const r = ZEventInput.safeParse(value);
    if (r.success) events.push(r.data as TEvent);
    else
      for (const issue of r.error.issues)
        issues.push({ path: ["events", i, ...issue.path].join("."), message: issue.message });
    // Not `await slices.pause()`: an await per event costs a turn of the microtask queue each.
    if (slices.due()) await slices.next();
  }
  if (!issues.length) return events;
  throw new AppError(
    400,
    "invalid_request",
    `invalid request: ${issues[0]!.path}: ${issues[0]!.message}`,
    issues,
  );
}

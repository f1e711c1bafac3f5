// GET …/events: a page after a seq (oldest first, a long-poll when `wait` is given and nothing
// is there yet), or with any filter or `before` a search (newest first). The route's guard has
// read the pod's state already; `signal` ends a long-poll early (the caller hung up, the node drains).
import type { AppContext } from "../app-context";
import type { EventSearchPage, EventsPage } from "../wire/events";
import type { ZReadEventsQuery } from "../wire/pods";
import type { z } from "zod";
import { searchEventsPage } from "./read-events";
import { waitForEvents } from "./wait-for-events";

export type ReadEventsQuery = z.output<typeof ZReadEventsQuery>;

/** Where a search starts when no `before` is given: past any seq. */
export const PAST_THE_HEAD = 2_147_483_647;

export async function readEventsPage(
  app: Pick<AppContext, "store" | "bus">,
  podId: string,
  q: ReadEventsQuery,
  signal: AbortSignal,
): Promise<EventsPage | EventSearchPage> {
  const filter = {
    types: q.type?.split(",").filter(Boolean),
    actor: q.actor,
    role: q.role,
    taskId: q.taskId,
    runId: q.runId,
    q: q.q,
  };
  if (q.before !== undefined || Object.values(filter).some((v) => (Array.isArray(v) ? v.length : v))) {
    const { events, more } = await searchEventsPage(
      app.store,
      podId,
      filter,
      q.before ?? PAST_THE_HEAD,
      q.limit,
    );
    // A page that may not be the last says where to go on (one cut short by bytes too); null: the
    // last (a search whose text is then looked for in the page, as a share link's is, may return
    // fewer than it read and still go on).
    return { events, nextBefore: more && events.length ? events.at(-1)!.seq : null };
  }
  const events = await waitForEvents(app.store, app.bus, podId, {
    after: q.after,
    limit: q.limit,
    waitSeconds: q.wait,
    signal,
  });
  return { events, nextAfter: events.at(-1)?.seq ?? q.after };
}

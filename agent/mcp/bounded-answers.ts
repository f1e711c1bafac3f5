// Every MCP tool answer is bounded in bytes. A model reads it into its context and a remote
// session (server/mcp/) holds it in memory until it is sent (and, for resumption, after), so
// the tools that can return a lot answer a page of whole items and say where the next starts:
// read_tape pages the tape after a seq, plan_read pages the plan's tasks from an index.
// The other tools answer an acknowledgement, an escalation's answer or a proof's verdict,
// all bounded by what the server accepts; MAX_ANSWER_BYTES is their backstop too.
import type { PodwatchClient } from "../sdk/client";
import type { TapeEvent } from "../../server/wire/events";

/**
 * One answer's text, in UTF-8 bytes: about 64k tokens, as much as a model can use in one read.
 * An event larger than this alone (its body may be 1 MiB) comes without its body, which says how
 * large it was and where to read it.
 */
export const MAX_ANSWER_BYTES = 256 * 1024;
/** Room kept for a page's own fields (`nextAfter`, `more`, the note) around its items. */
const PAGE_FIELDS_BYTES = 512;
/**
 * Events fetched per request while a page fills, at most: a tape of 1 MiB events makes one
 * read_tape call hold at most this many at once, however many the caller asked for.
 */
const FETCH_MAX = 16;

const bytesOf = (json: string) => Buffer.byteLength(json, "utf8");

/** A page's text: the items as compact JSON, then its own fields. */
function pageText(key: string, items: string[], fields: Record<string, unknown>): string {
  const rest = JSON.stringify(fields).slice(1);
  return `{"${key}":[${items.join(",")}]${rest === "}" ? "}" : `,${rest}`}`;
}

/** Whole items from the start of `items` while their JSON fits in `room` (the first always does). */
export function fitItems(items: unknown[], room: number): string[] {
  const taken: string[] = [];
  let used = 0;
  for (const item of items) {
    const json = JSON.stringify(item);
    const bytes = bytesOf(json) + 1; // and its comma
    if (taken.length && used + bytes > room) break;
    taken.push(json);
    used += bytes;
  }
  return taken;
}

/**
 * read_tape: events after `after`, oldest first, up to `limit` and MAX_ANSWER_BYTES. Fetched
 * a few at a time (sized by the largest event seen so far) so a tape of large events never
 * arrives whole; only the first fetch long-polls. `more` says the tape goes on after `nextAfter`.
 */
export async function readTapePage(
  client: Pick<PodwatchClient, "readEvents">,
  a: { after: number; limit: number; waitSeconds: number },
  signal: AbortSignal,
): Promise<string> {
  const room = MAX_ANSWER_BYTES - PAGE_FIELDS_BYTES;
  const taken: string[] = [];
  let used = 0;
  let nextAfter = a.after;
  let largest = 0;
  let more = false;
  let ended = false;
  while (!more && !ended && taken.length < a.limit) {
    const fits = largest ? Math.floor((room - used) / largest) : 4;
    // One past the limit: if it comes, the tape goes on.
    const want = Math.max(1, Math.min(fits, FETCH_MAX, a.limit - taken.length + 1));
    const page = await client.readEvents(nextAfter, {
      limit: want,
      waitSeconds: taken.length ? 0 : a.waitSeconds,
      signal,
    });
    for (const e of page.events) {
      let json = JSON.stringify(e);
      if (bytesOf(json) + 1 > room) json = JSON.stringify(withoutBody(e, bytesOf(json)));
      const bytes = bytesOf(json) + 1;
      largest = Math.max(largest, bytes);
      if (taken.length >= a.limit || (taken.length && used + bytes > room)) {
        more = true;
        break;
      }
      taken.push(json);
      used += bytes;
      nextAfter = e.seq;
    }
    ended = page.events.length < want; // the tape's end, for now
  }
  // Stopped on the limit with every event fetched taken (the fetch was capped by FETCH_MAX or the
  // room, so none came past it): one more, without waiting, says whether the tape goes on.
  if (!more && !ended && taken.length >= a.limit)
    more = (await client.readEvents(nextAfter, { limit: 1, waitSeconds: 0, signal })).events.length > 0;
  return pageText("events", taken, {
    nextAfter,
    more,
    ...(more ? { note: `more events: call read_tape with after=${nextAfter}` } : {}),
  });
}

/** An event too large for any answer: all but its body, and how to read that. */
function withoutBody(e: TapeEvent, bytes: number) {
  return {
    ...e,
    body: null,
    bodyOmitted: {
      bytes,
      note: `larger than one read_tape answer: GET /api/v1/pods/${e.podId}/events?after=${e.seq - 1}&limit=1`,
    },
  };
}

/** plan_read: the plan's tasks from index `from`, whole, up to MAX_ANSWER_BYTES. */
export function planPage(plan: { tasks: unknown[] }, from: number): string {
  const { tasks, ...rest } = plan;
  const page = fitItems(
    tasks.slice(from),
    MAX_ANSWER_BYTES - PAGE_FIELDS_BYTES - bytesOf(JSON.stringify(rest)),
  );
  const next = from + page.length;
  const more = next < tasks.length;
  return pageText("tasks", page, {
    ...rest,
    ...(more
      ? { more, next_from: next, note: `more tasks: call plan_read with from=${next}` }
      : from > 0
        ? { more }
        : {}),
  });
}

/** Any other answer past the bound (a refusal listing many issues): cut, and said so. */
export function boundedText(text: string): string {
  if (bytesOf(text) <= MAX_ANSWER_BYTES) return text;
  const cut = Buffer.from(text, "utf8")
    .subarray(0, MAX_ANSWER_BYTES - 64)
    .toString("utf8");
  return `${cut.replace(/\uFFFD$/, "")}\n… (cut at ${MAX_ANSWER_BYTES} bytes)`;
}

// A pod's tape over the API: append events (one, or a batch, all or nothing), read them (a page
// after a seq, a long-poll, or a search) and verify the hash chain. Declared once for the OpenAPI
// document, the reference and the browser's typed client. Appending and reading keep routes of
// their own (server/http/tape-routes.ts, `handwritten`): the append is the agents' hot path and
// parses a large batch in slices; the read is a long-poll that ends when its caller hangs up.
import { z } from "zod";
import { CLIENT_IP_HEADER } from "../access/create-auth";
import { defineOperation, ZPodId } from "../operations/operation";
import { ZAck } from "../wire/access";
import { ZEventBatch, ZEventInput, ZStoredEventHead, type TapeEvent } from "../wire/events";
import { ZReadEventsQuery } from "../wire/pods";
import { readEventsPage } from "./read-events-page";
import { verifyChain } from "./verify-chain";

const tag = "Tape";

const ZTapeEvent = ZStoredEventHead.extend({
  body: z.unknown(),
  meta: z
    .object({
      taskId: z.string().optional(),
      runId: z.string().optional(),
      workItemId: z.string().optional(),
      mood: z.string().optional(),
      refs: z.array(z.string()).optional(),
      sessionId: z.string().optional(),
    })
    .nullable(),
}) satisfies z.ZodType<TapeEvent>;

export const tapeOperations = {
  appendEvents: defineOperation({
    name: "appendEvents",
    summary:
      "Appends one event, or `{ events: [...] }` (up to 1000, all or nothing), as the caller: an agent token speaks " +
      "only as its member. Each event type's body is in GET /api/v1/schema. Answers one ack per event, in order; " +
      "an id already on the tape answers its first ack.",
    tag,
    input: z.object({ podId: ZPodId, request: z.union([ZEventBatch, ZEventInput]) }),
    output: z.object({ events: z.array(ZAck) }),
    guard: "append",
    http: {
      method: "POST",
      path: "/api/v1/pods/{podId}/events",
      status: 201,
      body: "request",
      handwritten: true,
    },
    run: async ({ app, identity }, { podId, request }) => {
      const events = "events" in request ? request.events : [request];
      return { events: await app.append(podId, events, identity) };
    },
  }),
  readEvents: defineOperation({
    name: "readEvents",
    summary:
      "Events after `after`, oldest first, and `nextAfter`; with `wait` (seconds) and nothing there yet, held until " +
      "an event arrives or the wait ends. A page of large events is cut at about 8 MiB of bodies (at least one " +
      "event): read on from `nextAfter`. With `before` or any filter (`type`, a comma list; `actor`, `role`, " +
      "`taskId`, `runId`, `q`), a search: newest first, and `nextBefore` (null at the start). A share link reads " +
      "the pod's people by name, never by email, and searches them by name (422 for an address).",
    tag,
    input: z.object({ podId: ZPodId, ...ZReadEventsQuery.shape }),
    output: z.union([
      z.object({ events: z.array(ZTapeEvent), nextAfter: z.number().int() }),
      z.object({ events: z.array(ZTapeEvent), nextBefore: z.number().int().nullable() }),
    ]),
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/events", status: 200, handwritten: true },
    run: ({ app }, { podId, ...q }) => readEventsPage(app, podId, q, new AbortController().signal),
  }),
  verifyTape: defineOperation({
    name: "verifyTape",
    summary:
      "Walks the hash chain: on from where this server last verified it, or from seq 1 with `full=1`. One at a " +
      "time per caller: 429 `verification_in_progress` with `Retry-After` while one is running.",
    tag,
    input: z.object({ podId: ZPodId, full: z.string().optional() }),
    output: z.union([
      z.object({ ok: z.literal(true), checked: z.number().int() }),
      z.object({ ok: z.literal(false), checked: z.number().int(), firstBadSeq: z.number().int() }),
    ]),
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/verify", status: 200 },
    run: ({ app, identity, request }, a) => {
      // One walk in flight per caller: a token, a person or a share link; else (the admin token) its IP.
      const caller =
        identity.kind === "agent"
          ? `token:${identity.tokenId}`
          : identity.kind === "user"
            ? `user:${identity.userId}`
            : identity.kind === "share"
              ? `share:${identity.linkId}`
              : `ip:${request.headers.get(CLIENT_IP_HEADER) ?? "unknown"}`;
      return app.verifications.run(caller, () => verifyChain(app.store, a.podId, { full: a.full === "1" }));
    },
  }),
};

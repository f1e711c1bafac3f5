// The protocol's file formats as operations (docs/protocol/): plan.json, a workcell's task
// manifest and its proof.json become tape events, appended as the caller; the plan, the pod's
// state (now or as of a seq) and the event schemas are read models. Declared once: the REST
// routes, the OpenAPI document and the reference come from this table.
import { z } from "zod";
import { AppError, notFound } from "../domain/errors";
import { maySeeItem, podAccess } from "../domain/access/policy";
import { defineOperation, type OperationContext, ZPodId } from "../operations/operation";
import { parseWith } from "../shared/read-json";
import { ZAck } from "../wire/access";
import { eventJsonSchemas, ZEventJsonSchemas } from "../wire/event-json-schema";
import { ZEventInput } from "../wire/events";
import { ZPodStateView } from "../wire/pod-state-view";
import { ZPodStateQuery } from "../wire/pods";
import { ZPlanJson, ZProof, ZTaskManifest } from "../wire/seed-formats";
import { TASK_STATES } from "../wire/vocabulary";
import { planJson } from "./read-plan";
import { readPodState } from "./read-pod-state";
import { onlookerView } from "./onlooker-view";

const tag = "Protocol";
const WHO =
  "The event's actor is the agent token's member; with the admin token, the `X-Podwatch-Actor` header " +
  "(else `api`).";

/** plan.json as GET /plan reads it back. */
const ZPlanRead = z.object({
  tasks: z.array(
    z.object({
      task_id: z.string(),
      description: z.string(),
      status: z.enum(TASK_STATES),
      metadata: z.record(z.string(), z.unknown()),
      depends_on: z.array(z.string()).optional(),
    }),
  ),
});
const ZWorkcellAck = z.object({ workcellId: z.string(), event: ZAck });

/** Who is named as the actor: the token's member, else the caller's header, else "api". */
function speaker({ identity, request }: OperationContext): string {
  if (identity.kind === "agent") return identity.memberId;
  const named = request.headers.get("x-podwatch-actor")?.trim();
  return named ? named.slice(0, 200) : "api";
}

/** One event of the protocol's, through the event schema (its bounds and defaults) and the one write path. */
async function appendSeedEvent(c: OperationContext, podId: string, type: string, body: unknown) {
  const event = parseWith(ZEventInput, { type, actor: speaker(c), body }, "event");
  const [ack] = await c.app.append(podId, [event], c.identity);
  return ack!;
}

export const protocolOperations = {
  importPlan: defineOperation({
    name: "importPlan",
    summary: `Imports a plan.json as written (plan.imported); answers the event and the plan as it now reads. ${WHO}`,
    tag,
    input: z.object({ podId: ZPodId, plan: ZPlanJson }),
    output: z.object({ event: ZAck, plan: ZPlanRead }),
    guard: "append",
    http: { method: "POST", path: "/api/v1/pods/{podId}/plan", status: 201, body: "plan" },
    run: async (c, a) => {
      const event = await appendSeedEvent(c, a.podId, "plan.imported", { plan: a.plan });
      const state = await c.app.store.readState(a.podId);
      if (!state) throw notFound("pod");
      return { event, plan: planJson(state) };
    },
  }),
  readPlan: defineOperation({
    name: "readPlan",
    summary: "The pod's plan in plan.json's own format, each task with its status.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: ZPlanRead,
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/plan", status: 200 },
    run: async ({ app, podState }, a) => {
      const state = podState ?? (await app.store.readState(a.podId));
      if (!state) throw notFound("pod");
      return planJson(state);
    },
  }),
  openWorkcell: defineOperation({
    name: "openWorkcell",
    summary: `Opens a workcell from its task manifest (workcell.opened). ${WHO}`,
    tag,
    input: z.object({ podId: ZPodId, manifest: ZTaskManifest }),
    output: ZWorkcellAck,
    guard: "append",
    http: { method: "POST", path: "/api/v1/pods/{podId}/workcells", status: 201, body: "manifest" },
    run: async (c, a) => ({
      workcellId: a.manifest.workcell_id,
      event: await appendSeedEvent(c, a.podId, "workcell.opened", { manifest: a.manifest }),
    }),
  }),
  submitProof: defineOperation({
    name: "submitProof",
    summary:
      "A workcell's proof.json (workcell.proof); 422 `proof_workcell_mismatch` when its `workcell_id` is not the " +
      `path's. ${WHO}`,
    tag,
    input: z.object({ podId: ZPodId, workcellId: z.string(), proof: ZProof }),
    output: ZWorkcellAck,
    guard: "append",
    http: {
      method: "POST",
      path: "/api/v1/pods/{podId}/workcells/{workcellId}/proof",
      status: 201,
      body: "proof",
    },
    run: async (c, { podId, workcellId, proof }) => {
      if (proof.workcell_id !== workcellId)
        throw new AppError(
          422,
          "proof_workcell_mismatch",
          `proof.json is for workcell ${proof.workcell_id}, posted to ${workcellId}`,
          [{ path: "workcell_id", message: "must match the URL" }],
        );
      return { workcellId, event: await appendSeedEvent(c, podId, "workcell.proof", { proof }) };
    },
  }),
  readPodState: defineOperation({
    name: "readPodState",
    summary:
      "The pod's state as the control room shows it: now, or as of a seq (`atSeq`, replayed from the nearest " +
      "checkpoint). Notices are in the inbox for the pod's admins only; a share link reads people by name, not email.",
    tag,
    input: z.object({ podId: ZPodId, ...ZPodStateQuery.shape }),
    output: ZPodStateView,
    guard: { pod: "viewer" },
    // A lived-in pod's view is ~1.3 MB of JSON: written in slices, not in one JSON.stringify.
    http: { method: "GET", path: "/api/v1/pods/{podId}/state", status: 200, sliced: true },
    run: async ({ app, identity, podState }, { podId, atSeq }) => {
      const state = podState ?? (await app.store.readState(podId));
      if (!state) throw notFound("pod");
      const view = await readPodState(app.store, podId, state, atSeq);
      const access = podAccess(identity, podId, state);
      const seen = { ...view, inbox: view.inbox.filter((i) => maySeeItem(access, i)) };
      // A share link's onlooker has no account: the pod's people are named to them, not by email.
      // (Also named so by the door, server/http/operation-routes.ts; here as of the seq read, for those since gone.)
      return identity.kind === "share" ? onlookerView(seen, state) : seen;
    },
  }),
  eventSchemas: defineOperation({
    name: "eventSchemas",
    summary: "Every event type's body as JSON Schema (2020-12), with the bounds the server enforces.",
    tag,
    input: z.object({}),
    output: ZEventJsonSchemas,
    guard: "public",
    http: { method: "GET", path: "/api/v1/schema", status: 200 },
    run: async () => eventJsonSchemas(),
  }),
};

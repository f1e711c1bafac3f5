// The protocol's file formats as endpoints (docs/protocol/): plan.json, task manifests and
// proof.json become tape events; state and schema are read models.
import { maySeeItem, podAccess } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import { stringifyInSlices } from "../history/json-in-slices";
import { readPodState } from "../pods/read-pod-state";
import { planJson } from "../pods/read-plan";
import { eventJsonSchemas } from "../wire/event-json-schema";
import { ZEventInput } from "../wire/events";
import { ZPodStateQuery } from "../wire/pods";
import { ZPlanJson, ZProof, ZTaskManifest, type PlanImported, type WorkcellAck } from "../wire/seed-formats";
import { parseWith, readJsonBody, sendJson, sendJsonText } from "./json";
import { actorOf, type Route, type RouteContext } from "./route";
import { appendAs } from "./tape-routes";

async function appendSeedEvent(c: RouteContext, type: string, body: unknown) {
  const event = parseWith(ZEventInput, { type, actor: actorOf(c), body }, "event");
  const [ack] = await appendAs(c, [event]);
  return ack!;
}

export const protocolRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/plan$/,
    guard: "append",
    run: async (c) => {
      const plan = parseWith(ZPlanJson, await readJsonBody(c.req), "plan.json");
      const ack = await appendSeedEvent(c, "plan.imported", { plan });
      sendJson(c.res, 201, {
        event: ack,
        plan: planJson((await c.app.store.readState(c.params[0]!))!),
      } satisfies PlanImported);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/plan$/,
    guard: { pod: "viewer" },
    run: async ({ res, podState }) => sendJson(res, 200, planJson(podState!)),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/workcells$/,
    guard: "append",
    run: async (c) => {
      const manifest = parseWith(ZTaskManifest, await readJsonBody(c.req), "task manifest");
      const ack = await appendSeedEvent(c, "workcell.opened", { manifest });
      sendJson(c.res, 201, { workcellId: manifest.workcell_id, event: ack } satisfies WorkcellAck);
    },
  },
  {
    method: "POST",
    path: /^\/api\/v1\/pods\/([^/]+)\/workcells\/([^/]+)\/proof$/,
    guard: "append",
    run: async (c) => {
      const proof = parseWith(ZProof, await readJsonBody(c.req), "proof.json");
      if (proof.workcell_id !== c.params[1]) {
        throw new AppError(
          422,
          "proof_workcell_mismatch",
          `proof.json is for workcell ${proof.workcell_id}, posted to ${c.params[1]}`,
          [{ path: "workcell_id", message: "must match the URL" }],
        );
      }
      const ack = await appendSeedEvent(c, "workcell.proof", { proof });
      sendJson(c.res, 201, { workcellId: proof.workcell_id, event: ack } satisfies WorkcellAck);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/state$/,
    guard: { pod: "viewer" },
    run: async ({ app, res, params, url, podState, identity }) => {
      const q = parseWith(ZPodStateQuery, Object.fromEntries(url.searchParams), "query");
      const view = await readPodState(app.store, params[0]!, podState!, q.atSeq);
      const access = podAccess(identity, params[0]!, podState);
      // A lived-in pod's view is ~1.3 MB of JSON: written in slices, not in one JSON.stringify.
      sendJsonText(
        res,
        200,
        await stringifyInSlices({ ...view, inbox: view.inbox.filter((i) => maySeeItem(access, i)) }),
      );
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/schema$/,
    guard: "public",
    run: async ({ res }) => sendJson(res, 200, eventJsonSchemas()),
  },
];

// Pods: read one, list those the caller may see, create, start, close, archive and unarchive one,
// and who a credential speaks for. Declared once: the REST routes, the control room's server actions and
// the reference come from this table.
import { z } from "zod";
import { AppError } from "../domain/errors";
import { defineOperation, ZPodId } from "../operations/operation";
import { ZClosePodInput, ZPodInput } from "../wire/actions";
import { ZCreatePodRequest, ZListPodsQuery, ZPodsResponse, ZPodSummary } from "../wire/pods";
import { describeIdentity, ZWhoami } from "../wire/whoami";
import { appendOperation } from "./append-operation";
import { setPodArchived } from "./archive-pod";
import { createPod } from "./create-pod";
import { listPodOverviews } from "./list-pod-overviews";
import { podCreator } from "./pod-creator";
import { getPod } from "./read-pods";

const tag = "Pods";

export const podOperations = {
  getPod: defineOperation({
    name: "getPod",
    summary: "The pod: its name, mode, scope, event count, head hash and when it was archived (or null).",
    tag,
    input: z.object({ podId: ZPodId }),
    output: ZPodSummary,
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}", status: 200 },
    run: ({ app }, a) => getPod(app.store, a.podId),
  }),
  listPods: defineOperation({
    name: "listPods",
    summary:
      "The pods the caller may see, newest first, with their status, inbox count, cadence and the caller's access; " +
      "`archived=1` lists the archived ones instead.",
    tag,
    input: ZListPodsQuery,
    output: ZPodsResponse,
    guard: "authenticated",
    http: { method: "GET", path: "/api/v1/pods", status: 200 },
    run: async ({ app, identity }, a) => ({
      pods: await listPodOverviews(app.store, identity, a.archived === "1"),
    }),
  }),
  createPod: defineOperation({
    name: "createPod",
    summary:
      "Creates a pod (site admins and people they allowed). A person joins it as its admin; with `successCriteria` " +
      "the scope is agreed on the tape at once. All of it lands, or none of it.",
    tag,
    input: ZCreatePodRequest,
    output: ZPodSummary,
    guard: "pod-creator",
    http: { method: "POST", path: "/api/v1/pods", status: 201 },
    action: true,
    run: ({ app, identity }, a) => createPod(app.store, app.bus, app.append, a, podCreator(identity)),
  }),
  archivePod: defineOperation({
    name: "archivePod",
    summary: "Hides the pod from the pod list (listed with `archived=1`); not on the tape.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: ZPodSummary,
    guard: { pod: "admin" },
    http: { method: "POST", path: "/api/v1/pods/{podId}/archive", status: 200 },
    action: true,
    run: ({ app }, a) => setPodArchived(app.store, a.podId, true),
  }),
  unarchivePod: defineOperation({
    name: "unarchivePod",
    summary: "Lists the pod again among the others.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: ZPodSummary,
    guard: { pod: "admin" },
    http: { method: "POST", path: "/api/v1/pods/{podId}/unarchive", status: 200 },
    action: true,
    run: ({ app }, a) => setPodArchived(app.store, a.podId, false),
  }),
  startPod: appendOperation({
    name: "startPod",
    summary: "Starts the pod (pod admins): `pod.started` on the tape, as the person.",
    tag,
    input: ZPodInput,
    need: "admin",
    events: (_a, actor) => [{ type: "pod.started", actor, body: {} }],
  }),
  closePod: appendOperation({
    name: "closePod",
    summary: "Closes the pod (pod admins), with a reason or none: `pod.closed` on the tape, as the person.",
    tag,
    input: ZClosePodInput,
    need: "admin",
    events: (a, actor) => [{ type: "pod.closed", actor, body: a.reason ? { reason: a.reason } : {} }],
  }),
  whoAmI: defineOperation({
    name: "whoAmI",
    summary:
      "Who the credential speaks for: an agent (its member and pod), a person, the admin token or a share link.",
    tag: "Identity",
    input: z.object({}),
    output: ZWhoami,
    guard: "authenticated",
    http: { method: "GET", path: "/api/v1/me", status: 200 },
    run: async ({ identity }) => {
      if (identity.kind === "anonymous")
        throw new AppError(401, "unauthenticated", "authentication required");
      return describeIdentity(identity);
    },
  }),
};

// The probes a load balancer or an orchestrator asks: alive, and ready for work. Declared here for
// the OpenAPI document and the reference; served by server/http/health-routes.ts (`handwritten`),
// outside /api/v1 where probes look for them, answering anyone.
import { z } from "zod";
import { defineOperation } from "./operation";

const tag = "Health";

export const healthOperations = {
  liveness: defineOperation({
    name: "liveness",
    summary: "The process answers. Says nothing of the database: a live node may still not be ready.",
    tag,
    input: z.object({}),
    output: z.object({ ok: z.literal(true) }),
    guard: "public",
    http: { method: "GET", path: "/healthz", status: 200, handwritten: true },
  }),
  readiness: defineOperation({
    name: "readiness",
    summary:
      "Ready for work: the node is not draining, the database answers and the bus hears every node's commits. " +
      "Else 503 with `ok: false` and why (`draining`, `database_unavailable`, `bus_unavailable`).",
    tag,
    input: z.object({}),
    output: z.union([
      z.object({ ok: z.literal(true), database: z.string(), bus: z.string(), node: z.string() }),
      z.object({ ok: z.literal(false), error: z.object({ code: z.string(), message: z.string() }) }),
    ]),
    guard: "public",
    http: { method: "GET", path: "/readyz", status: 200, also: [503], handwritten: true },
  }),
};

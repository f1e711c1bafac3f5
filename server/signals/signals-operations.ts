// Signals: one pod's, an export across pods (JSON, or CSV when asked), the signed record of one
// agent, and the public key that checks it. Declared once: the REST routes, the OpenAPI document
// and the reference come from this table.
import { z } from "zod";
import { AppError, notFound } from "../domain/errors";
import { requirePodAccess } from "../domain/access/policy";
import { defineOperation, ZPodId } from "../operations/operation";
import { ZPodSignalsView, ZSignalsExport, ZSignedAgentRecord, type SignalsExport } from "../wire/signals";
import { buildAgentRecord } from "./build-agent-record";
import { readPodSignals } from "./read-pod-signals";
import { readSignalsExport } from "./read-signals-export";
import { signalsCsv } from "./signals-csv";
import { MAX_PODS_PER_EXPORT, ZPodSignalsQuery, ZRecordQuery, ZSignalsExportQuery } from "./signals-query";
import { signingKey, SIGNING_ALGORITHM } from "./signing-key";

const tag = "Signals";
const BUSY = "503 `recompute_busy` with `Retry-After` while the server already recomputes for others.";
const WINDOW =
  "`from`/`to`: ISO dates or date-times with their zone, counting only what happened between them.";

/** `pod` given again, or as a comma list: the pods, each once; none is every pod the caller sees. */
const ZPodList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => [
    ...new Set(
      (Array.isArray(v) ? v : [v])
        .flatMap((p) => p.split(","))
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(ZSignalsExportQuery.shape.pods.unwrap())
  .transform((pods) => (pods.length ? pods : undefined));

export const signalsOperations = {
  podSignals: defineOperation({
    name: "podSignals",
    summary:
      "Each agent's signals and rates, the pod's totals (agentId `*`), its cumulative cost and budgets: now, " +
      `as of a seq (\`asOf\`), or over a window. ${WINDOW} ${BUSY}`,
    tag,
    input: z.object({ podId: ZPodId, ...ZPodSignalsQuery.shape }),
    output: ZPodSignalsView,
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/signals", status: 200 },
    run: async ({ app, podState }, { podId, ...q }) => {
      const state = podState ?? (await app.store.readState(podId));
      if (!state) throw notFound("pod");
      return readPodSignals(app, podId, q, state);
    },
  }),
  signalsExport: defineOperation({
    name: "signalsExport",
    summary:
      "One row per pod and agent across the pods the caller sees (or those named with `pod`, repeated or a " +
      `comma list, at most ${MAX_PODS_PER_EXPORT}), and each agent added up across them. CSV with ` +
      `\`format=csv\` or \`Accept: text/csv\`. ${WINDOW} ${BUSY}`,
    tag,
    input: z.object({
      pod: ZPodList.optional(),
      agent: ZSignalsExportQuery.shape.agent,
      from: ZSignalsExportQuery.shape.from,
      to: ZSignalsExportQuery.shape.to,
      format: ZSignalsExportQuery.shape.format,
    }),
    output: ZSignalsExport,
    guard: "authenticated",
    http: {
      method: "GET",
      path: "/api/v1/signals",
      status: 200,
      alternative: {
        field: "format",
        value: "csv",
        contentType: "text/csv; charset=utf-8; header=present",
        disposition: 'attachment; filename="signals.csv"',
        text: (body: SignalsExport) => signalsCsv(body.rows),
      },
    },
    run: ({ app, identity }, { pod, format: _, ...q }) =>
      readSignalsExport(app, identity, { pods: pod, ...q }),
  }),
  agentRecord: defineOperation({
    name: "agentRecord",
    summary:
      "One agent's signals and every event they come from, against the pod's chain head, signed with the " +
      "installation's Ed25519 key (`signature` over the UTF-8 of the payload's canonical JSON; " +
      `scripts/verify-record.mjs checks it). Viewer access to \`pod\`, not through a share link. ${WINDOW} ${BUSY}`,
    tag,
    input: ZRecordQuery,
    output: ZSignedAgentRecord,
    guard: "authenticated",
    // Up to 32 MiB of event bodies: written in slices, not in one JSON.stringify.
    http: { method: "GET", path: "/api/v1/signals/record", status: 200, sliced: true },
    run: async ({ app, identity }, q) => {
      const state = await app.store.readState(q.pod);
      if (!state) throw notFound("pod");
      const verdict = requirePodAccess(identity, q.pod, state, "viewer");
      if (!verdict.ok) throw new AppError(verdict.status, verdict.code, verdict.message);
      // The record is signed over the events as written, people's emails included: named for an
      // onlooker it would no longer verify, so a share link is not given it.
      if (identity.kind === "share")
        throw new AppError(
          403,
          "forbidden",
          "a signed record names the pod's people; a share link cannot read it",
        );
      return buildAgentRecord(app, q.pod, state, { agentId: q.agent, from: q.from, to: q.to });
    },
  }),
  signingKey: defineOperation({
    name: "signingKey",
    summary: "The installation's public key for signed records (PEM), and its id.",
    tag,
    input: z.object({}),
    output: z.object({
      keyId: z.string(),
      algorithm: z.literal(SIGNING_ALGORITHM),
      publicKeyPem: z.string(),
    }),
    guard: "public",
    http: { method: "GET", path: "/api/v1/signals/key", status: 200 },
    run: async ({ app }) => {
      const { keyId, algorithm, publicKeyPem } = await signingKey(app.store);
      return { keyId, algorithm, publicKeyPem };
    },
  }),
};

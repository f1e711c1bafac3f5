// Signals: one pod's, an export across pods (JSON or CSV), the signed record of one
// agent, and the public key that checks it. Thin: parse, call one read model, answer.
import type { ServerResponse } from "node:http";
import { AppError, notFound } from "../domain/errors";
import { requirePodAccess } from "../domain/access/policy";
import { readPodSignals } from "../signals/read-pod-signals";
import { readSignalsExport } from "../signals/read-signals-export";
import { stringifyInSlices } from "../history/json-in-slices";
import { buildAgentRecord } from "../signals/build-agent-record";
import { signingKey } from "../signals/signing-key";
import { RECOMPUTE_RETRY_AFTER_SECONDS, RecomputeBusy } from "../signals/recompute-slots";
import { signalsCsv } from "../signals/signals-csv";
import { exportQuery, ZPodSignalsQuery, ZRecordQuery } from "../signals/signals-query";
import type { SigningKeyView } from "../wire/signals";
import { parseWith, sendJson, sendJsonText } from "./json";
import { sendText } from "./compress";
import type { Route } from "./route";

/** A recomputation refused for want of a slot says when to come back. */
async function busyAware<T>(res: ServerResponse, work: Promise<T>): Promise<T> {
  return work.catch((e) => {
    if (e instanceof RecomputeBusy) res.setHeader("retry-after", String(RECOMPUTE_RETRY_AFTER_SECONDS));
    throw e;
  });
}

function sendCsv(res: ServerResponse, text: string) {
  sendText(
    res,
    200,
    {
      "content-type": "text/csv; charset=utf-8; header=present",
      "content-disposition": 'attachment; filename="signals.csv"',
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
    text,
  );
}

export const signalsRoutes: Route[] = [
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/signals$/,
    guard: { pod: "viewer" },
    run: async ({ app, res, params, url, podState }) => {
      const q = parseWith(ZPodSignalsQuery, Object.fromEntries(url.searchParams), "query");
      sendJson(res, 200, await busyAware(res, readPodSignals(app, params[0]!, q, podState!)));
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/signals$/,
    guard: "authenticated",
    run: async ({ app, req, res, url, identity }) => {
      const { format, ...q } = exportQuery(url);
      const csv =
        format === "csv" || (format === undefined && /\btext\/csv\b/i.test(String(req.headers.accept ?? "")));
      const body = await busyAware(res, readSignalsExport(app, identity, q));
      if (csv) sendCsv(res, signalsCsv(body.rows));
      else sendJson(res, 200, body);
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/signals\/record$/,
    guard: "authenticated",
    run: async ({ app, res, url, identity }) => {
      const q = parseWith(ZRecordQuery, Object.fromEntries(url.searchParams), "query");
      const state = await app.store.readState(q.pod);
      if (!state) throw notFound("pod");
      const verdict = requirePodAccess(identity, q.pod, state, "viewer");
      if (!verdict.ok) throw new AppError(verdict.status, verdict.code, verdict.message);
      // Up to 32 MiB of event bodies: written in slices, not in one JSON.stringify.
      sendJsonText(
        res,
        200,
        await stringifyInSlices(
          await busyAware(
            res,
            buildAgentRecord(app, q.pod, state, { agentId: q.agent, from: q.from, to: q.to }),
          ),
        ),
      );
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/signals\/key$/,
    guard: "public",
    run: async ({ app, res }) => {
      const { keyId, algorithm, publicKeyPem } = await signingKey(app.store);
      sendJson(res, 200, { keyId, algorithm, publicKeyPem } satisfies SigningKeyView);
    },
  },
];

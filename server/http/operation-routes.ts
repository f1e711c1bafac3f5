// The REST side of the operation tables (server/operations/): one Route per operation with an
// HTTP binding. The router (./api-routes.ts) authenticates, rate-limits and checks the guard as for
// any route; this reads the input from the path, the query or the body, parses it with the
// operation's schema, runs it and answers its status.
import { fromNodeHeaders } from "better-auth/node";
import { AppError } from "../domain/errors";
import { pathParams, type Operation } from "../operations/operation";
import { operations } from "../operations/operations";
import { openApiDocument } from "../operations/openapi";
import { stringifyInSlices } from "../db/json-in-slices";
import { asSeenBy } from "../pods/onlooker-view";
import { sendText } from "./compress";
import { parseWith, readJsonBody, sendJson, sendJsonText } from "./json";
import { adminActor, type Route, type RouteContext } from "./route";

const escapeRe = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, "\\$&");
const pathPattern = (template: string) =>
  new RegExp(
    `^${template
      .split(/\{[^}]+\}/)
      .map(escapeRe)
      .join("([^/]+)")}$`,
  );

/** Query text for the fields neither the path nor the body fills; a body only where some field is left for it. */
async function inputOf(op: Operation, c: RouteContext): Promise<Record<string, unknown>> {
  const http = op.http!;
  const names = pathParams(http.path);
  const input: Record<string, unknown> = Object.fromEntries(names.map((n, i) => [n, c.params[i]]));
  const rest = Object.keys(op.input.shape).filter((k) => !names.includes(k));
  if (http.method === "GET" || http.method === "DELETE") {
    // A field given more than once is a list: the schema takes it (`?pod=a&pod=b`) or refuses it.
    for (const k of rest) {
      const all = c.url.searchParams.getAll(k);
      if (all.length) input[k] = all.length > 1 ? all : all[0];
    }
    return input;
  }
  if (!rest.length) return input;
  // A body the operation can do without (its fields optional or defaulted) may be left out.
  const sent =
    Number(c.req.headers["content-length"] ?? 0) > 0 || c.req.headers["transfer-encoding"] !== undefined;
  if (!sent && op.input.safeParse(input).success) return input;
  const body = await readJsonBody(c.req);
  if (http.body) return { ...input, [http.body]: body };
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new AppError(400, "invalid_request", "invalid request: (root): send a JSON object");
  return { ...body, ...input };
}

/** A body field's issues are named as the body's own (`url`, not `webhook.url`), as the client sent them. */
function parseInput(op: Operation, raw: Record<string, unknown>) {
  const key = op.http!.body;
  try {
    return parseWith(op.input, raw);
  } catch (e) {
    if (!key || !(e instanceof AppError) || !e.issues) throw e;
    const strip = (p: string) => (p === key ? "" : p.startsWith(`${key}.`) ? p.slice(key.length + 1) : p);
    const issues = e.issues.map((i) => ({ ...i, path: strip(i.path) }));
    throw new AppError(
      400,
      "invalid_request",
      `invalid request: ${issues[0]!.path || "(root)"}: ${issues[0]!.message}`,
      issues,
    );
  }
}

const TEXT_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

/** The alternative's text when the caller asks for it (the query's field, else its Accept header), else JSON. */
async function answer(op: Operation, c: RouteContext, output: unknown) {
  const http = op.http!;
  const alt = http.alternative;
  if (alt) {
    const asked = c.url.searchParams.get(alt.field);
    const type = alt.contentType.split(";")[0]!.trim();
    const accepts = String(c.req.headers.accept ?? "")
      .toLowerCase()
      .split(",")
      .some((t) => t.split(";")[0]!.trim() === type);
    if (asked === null ? accepts : asked === alt.value) {
      const headers = {
        "content-type": alt.contentType,
        ...(alt.disposition ? { "content-disposition": alt.disposition } : {}),
        ...TEXT_HEADERS,
      };
      return sendText(c.res, http.status, headers, alt.text(output as never));
    }
  }
  if (http.sliced) return sendJsonText(c.res, http.status, await stringifyInSlices(output));
  sendJson(c.res, http.status, output);
}

export function operationRoute(op: Operation): Route {
  const http = op.http!;
  const run = op.run;
  if (!run) throw new Error(`operation ${op.name} has nothing to run over REST`);
  return {
    method: http.method,
    path: pathPattern(http.path),
    guard: op.guard,
    run: async (c) => {
      const input = parseInput(op, await inputOf(op, c));
      try {
        const { app, identity, podState } = c;
        const request = { headers: fromNodeHeaders(c.req.headers) };
        const output = await run({ app, identity, actor: adminActor(identity), podState, request }, input);
        // A share link's onlooker reads every answer with the pod's people named, never by email.
        await answer(op, c, await asSeenBy(app.store, identity, output, podState));
      } catch (e) {
        // "Ask again later" (e.g. a test message sent too soon) tells HTTP clients when.
        if (e instanceof AppError && "retryAfterSeconds" in e)
          c.res.setHeader("retry-after", String(e.retryAfterSeconds));
        throw e;
      }
    },
  };
}

let document: object | null = null;

export const operationRoutes: Route[] = [
  ...operations.filter((op) => op.http && !op.http.handwritten).map(operationRoute),
  {
    method: "GET",
    path: /^\/api\/v1\/openapi\.json$/,
    guard: "public",
    run: async ({ res }) => sendJson(res, 200, (document ??= openApiDocument())),
  },
];

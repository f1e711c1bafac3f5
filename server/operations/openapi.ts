// The OpenAPI 3.1 document of the operation tables, served at GET /api/v1/openapi.json. Its
// schemas are the operations' own zod schemas as JSON Schema 2020-12 (zod's toJSONSchema): what
// a request may hold is what the server parses, and nothing is written down twice.
import { z } from "zod";
import { operations } from "./operations";
import { pathParams, type Guard, type HttpMethod, type Operation } from "./operation";

type JsonSchema = { [key: string]: unknown; properties?: Record<string, JsonSchema>; required?: string[] };

/** JSON Schema of what a caller sends (`input`) or receives (`output`), without the `$schema` key. */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/** Who may call it, in words (the reference and the document's descriptions). */
export function guardText(guard: Guard): string {
  if (guard === "public") return "anyone";
  if (guard === "authenticated") return "any authenticated caller";
  if (guard === "person") return "a signed-in person (their session; tokens are refused)";
  if (guard === "site-admin") return "site admins (and the admin token)";
  if (guard === "pod-creator") return "site admins and people they allowed to create pods";
  if (guard === "append") return "an agent token of the pod (or the admin token)";
  if (guard === "agent")
    return "an agent token (its pod and member are the token's; people and the admin token are refused)";
  const agents = guard.agents ? "; any agent token of the pod may try, and the write path decides" : "";
  return `${guard.pod} access to the pod (site admins and the admin token have it)${agents}`;
}

const ERROR = { $ref: "#/components/schemas/Error" };
const errorSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        code: { type: "string" },
        message: { type: "string" },
        issues: {
          type: "array",
          items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
        },
      },
      required: ["code", "message"],
    },
  },
  required: ["error"],
};

/** GET, HEAD and DELETE take their input from the path and the query; the others also from a body. */
export const readsQuery = (method: HttpMethod) =>
  method === "GET" || method === "HEAD" || method === "DELETE";

/** The same schema under each media type; JSON when the binding names none. */
const mediaOf = (types: string[] | undefined, schema: unknown) =>
  Object.fromEntries((types ?? ["application/json"]).map((type) => [type, { schema }]));

function describe(op: Operation) {
  const http = op.http!;
  const input = jsonSchemaOf(op.input, "input");
  const props = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inPath = pathParams(http.path);
  const inQuery = http.query ?? [];
  const rest = Object.keys(props).filter((k) => !inPath.includes(k) && !inQuery.includes(k));
  const param = (name: string, where: "path" | "query") => ({
    name,
    in: where,
    required: where === "path" || required.has(name),
    schema: props[name],
  });
  const parameters = [...inPath.map((n) => param(n, "path")), ...inQuery.map((n) => param(n, "query"))];
  const reads = readsQuery(http.method);
  if (reads) parameters.push(...rest.map((n) => param(n, "query")));
  const bodySchema = http.body
    ? props[http.body]
    : {
        type: "object",
        properties: Object.fromEntries(rest.map((k) => [k, props[k]])),
        required: rest.filter((k) => required.has(k)),
      };
  const answer = mediaOf(http.media?.response, jsonSchemaOf(op.output, "output"));
  const alternative = http.alternative
    ? { [http.alternative.contentType.split(";")[0]!.trim()]: { schema: { type: "string" } } }
    : {};
  const content = { ...answer, ...alternative };
  const refusal = http.media?.error
    ? mediaOf(http.media.response, jsonSchemaOf(http.media.error, "output"))
    : {};
  const success = { description: "Success", ...(Object.keys(content).length ? { content } : {}) };
  return {
    operationId: op.name,
    summary: op.summary,
    description: `Who may call it: ${guardText(op.guard)}.`,
    tags: [op.tag],
    ...(op.guard === "public" ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(!reads && rest.length
      ? { requestBody: { required: true, content: mediaOf(http.media?.request, bodySchema) } }
      : {}),
    responses: {
      ...Object.fromEntries([http.status, ...(http.also ?? [])].map((status) => [String(status), success])),
      ...(http.media?.error
        ? {
            "4XX": { description: "Refused; nothing was changed", content: refusal },
            "5XX": { description: "Failed", content: refusal },
          }
        : {
            "4XX": {
              description: "Refused; nothing was changed",
              content: { "application/json": { schema: ERROR } },
            },
          }),
    },
  };
}

export function openApiDocument(ops: readonly Operation[] = operations) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops.filter((o) => o.http))
    (paths[op.http!.path] ??= {})[op.http!.method.toLowerCase()] = describe(op);
  return {
    openapi: "3.1.0",
    info: {
      title: "podwatch API",
      version: "1",
      description:
        "podwatch's HTTP API: the agent API v1, blobs, Claude Code's hook door, OTLP/HTTP traces and the health " +
        "probes, each declared once in an operation table. Not here: remote MCP at /mcp, a JSON-RPC session " +
        "protocol (Streamable HTTP) that lists its own tools.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    tags: [...new Set(ops.map((o) => o.tag))].map((name) => ({ name })),
    security: [{ bearer: [] }, { session: [] }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An agent token (pwa_…) or the admin token." },
        session: {
          type: "apiKey",
          in: "cookie",
          name: "better-auth.session_token",
          description: "A person's session (writes only from podwatch's own origin).",
        },
      },
    },
  };
}

// The API reference (docs/api.md), written from the operation tables by scripts/write-api-docs.ts;
// api-reference.test.ts fails when the committed file is not what this renders.
import { operations } from "./operations";
import { guardText, jsonSchemaOf, readsQuery } from "./openapi";
import { pathParams, type Operation } from "./operation";

type Schema = { [key: string]: unknown };
type Row = { name: string; type: string; required: boolean; notes: string };

const MANY = 8;

function typeOf(s: Schema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum))
    return s.enum.length > MANY
      ? `one of ${s.enum.length} names`
      : s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (Array.isArray(s.anyOf)) return (s.anyOf as Schema[]).map(typeOf).join(" \\| ");
  if (s.type === "array") return `${typeOf((s.items as Schema) ?? {})}[]`;
  if (Array.isArray(s.type)) return s.type.join(" \\| ");
  return typeof s.type === "string" ? s.type : "any";
}

function notesOf(s: Schema): string {
  if (Array.isArray(s.anyOf))
    return [notesOf({ ...s, anyOf: undefined }), ...(s.anyOf as Schema[]).map(notesOf)]
      .filter(Boolean)
      .join("; ");
  const bounds = [
    typeof s.format === "string" && `format ${s.format}`,
    s.minLength !== undefined && `min length ${s.minLength}`,
    s.maxLength !== undefined && `max length ${s.maxLength}`,
    s.minimum !== undefined && `from ${s.minimum}`,
    s.maximum !== undefined && (s.maximum as number) < Number.MAX_SAFE_INTEGER && `to ${s.maximum}`,
    s.minItems !== undefined && `min items ${s.minItems}`,
    s.default !== undefined && `default ${JSON.stringify(s.default)}`,
  ].filter(Boolean);
  return [typeof s.description === "string" ? s.description : "", bounds.join(", ")]
    .filter(Boolean)
    .join("; ");
}

/** One row per field, nested objects' fields dotted under theirs. */
function rowsOf(s: Schema, prefix = "", only?: string[]): Row[] {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = new Set((s.required as string[]) ?? []);
  return Object.entries(props)
    .filter(([k]) => !only || only.includes(k))
    .flatMap(([k, v]) => {
      const name = `${prefix}${k}`;
      const row = {
        name,
        type: v.type === "object" ? "object" : typeOf(v),
        required: required.has(k),
        notes: notesOf(v),
      };
      const items = (v.items ?? {}) as Schema;
      if (v.type === "array" && items.type === "object")
        return [{ ...row, type: "object[]" }, ...rowsOf(items, `${name}[].`)];
      return v.type === "object" ? [row, ...rowsOf(v, `${name}.`)] : [row];
    });
}

const table = (rows: Row[]) =>
  rows.length
    ? [
        "| Field | Type | Required | Notes |",
        "| --- | --- | --- | --- |",
        ...rows.map((r) => `| \`${r.name}\` | ${r.type} | ${r.required ? "yes" : "no"} | ${r.notes} |`),
        "",
      ]
    : ["(none)", ""];

/** A schema's fields; each alternative's of a union. */
function tablesOf(s: Schema): string[] {
  const alternatives = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const fields = Object.keys((s.properties ?? {}) as object).length > 0;
  if (fields || (!alternatives && typeof s.description !== "string")) return table(rowsOf(s));
  if (!alternatives) return [s.description as string, ""];
  if (alternatives.length > MANY) return [`One of ${alternatives.length} shapes (see the summary).`, ""];
  return ["One of:", "", ...alternatives.flatMap(tablesOf)];
}

function section(op: Operation): string[] {
  const http = op.http!;
  const input = jsonSchemaOf(op.input, "input");
  const inPath = pathParams(http.path);
  const inQuery = http.query ?? [];
  const rest = Object.keys((input.properties ?? {}) as object).filter(
    (k) => !inPath.includes(k) && !inQuery.includes(k),
  );
  const reads = readsQuery(http.method);
  const body = http.body ? ((input.properties as Record<string, Schema>)[http.body] ?? {}) : input;
  return [
    `### \`${http.method} ${http.path}\``,
    "",
    `${op.summary}`,
    "",
    `- Operation: \`${op.name}\`${op.action ? " (also a server action of the control room)" : ""}`,
    `- Who: ${guardText(op.guard)}`,
    `- Answers: ${[http.status, ...(http.also ?? [])].join(" or ")}, or ${
      http.media?.error
        ? `a refusal: ${http.media.error.description ?? "its protocol's"}`
        : 'an error `{ "error": { "code", "message", "issues"? } }`'
    }`,
    ...(http.media?.request ? [`- Body as: ${http.media.request.map((t) => `\`${t}\``).join(", ")}`] : []),
    ...(http.media?.response
      ? [`- Answer as: ${http.media.response.map((t) => `\`${t}\``).join(", ") || "no body"}`]
      : []),
    ...(http.alternative
      ? [
          `- Also as \`${http.alternative.contentType.split(";")[0]!.trim()}\`: with \`${http.alternative.field}=${http.alternative.value}\`, ` +
            `or without \`${http.alternative.field}\` when the Accept header names it`,
        ]
      : []),
    "",
    ...(reads && rest.length ? ["Query:", "", ...table(rowsOf(input, "", rest))] : []),
    ...(inQuery.length ? ["Query:", "", ...table(rowsOf(input, "", inQuery))] : []),
    ...(!reads && rest.length
      ? ["Body:", "", ...(http.body ? tablesOf(body) : table(rowsOf(input, "", rest)))]
      : []),
    ...(http.media?.response?.length === 0
      ? []
      : ["Answer:", "", ...tablesOf(jsonSchemaOf(op.output, "output"))]),
  ];
}

export function apiReference(ops: readonly Operation[] = operations): string {
  const tags = [...new Set(ops.filter((o) => o.http).map((o) => o.tag))];
  return [
    "# API reference",
    "",
    "Written by `npx tsx scripts/write-api-docs.ts` from the operation tables (`server/operations/operations.ts`);",
    "do not edit by hand. The same declarations serve the OpenAPI 3.1 document at `GET /api/v1/openapi.json`.",
    "Authenticate with `Authorization: Bearer <token>` (an agent token or the admin token) or a person's session.",
    "",
    ...tags.flatMap((tag) => [
      `## ${tag}`,
      "",
      ...ops.filter((o) => o.http && o.tag === tag).flatMap(section),
    ]),
  ].join("\n");
}

/**
 * The browser's routes (components/shared/api-routes.ts): each REST operation's method, path,
 * query fields and body field, one export each so a page's bundle holds only those it calls.
 */
export function browserRoutes(ops: readonly Operation[] = operations): string {
  // A door of other media than JSON (blob bytes, OTLP) is no call for the typed client, which reads JSON.
  const entries = ops
    .filter((o) => o.http && !o.http.media)
    .map((op) => {
      const http = op.http!;
      const inPath = pathParams(http.path);
      const inQuery = http.query ?? [];
      const rest = Object.keys(op.input.shape).filter((k) => !inPath.includes(k) && !inQuery.includes(k));
      const reads = readsQuery(http.method);
      const route = {
        name: op.name,
        method: http.method,
        path: http.path,
        query: reads ? rest : inQuery,
        body: reads || !rest.length ? null : (http.body ?? ""),
      };
      return `export const ${op.name}Route = ${JSON.stringify(route)} as const;`;
    });
  return [
    "// Written by `npx tsx scripts/write-api-docs.ts` from the operation tables (server/operations/); do not edit.",
    '// body: the input field sent as the JSON body ("": the fields neither path nor query takes), or none.',
    ...entries,
    "",
  ].join("\n");
}

// One capability, declared once: its name, input and output (zod), who may call it, what it
// runs, and optionally where it lives over HTTP. The REST routes (server/http/operation-routes.ts),
// the server actions (server/web/operation-action.ts), the OpenAPI document and the API reference
// (./openapi.ts, ./api-reference.ts) are all derived from these declarations.
import { z } from "zod";
import type { AppContext } from "../app-context";
import type { Access } from "../domain/events/event-schemas";
import type { Identity } from "../domain/access/policy";
import type { PodState } from "../domain/state/pod-state";

/**
 * Who may call it, checked before it runs: anyone; any authenticated caller; a signed-in person
 * (a session, never a token: what belongs to a person); a site admin; someone who may create pods;
 * some access to the pod named by the input's `podId` (over HTTP: the first path parameter), and
 * with `agents: true` any agent token of that pod too (what its member may then do is the write
 * path's rule); "append" (an agent token of that pod, or an admin token); or "agent" (an agent
 * token, whose pod and member are the token's: a door an agent reports through).
 */
export type Guard =
  | "public"
  | "authenticated"
  | "person"
  | "site-admin"
  | "pod-creator"
  | { pod: Access; agents?: true }
  | "append"
  | "agent";

/** A pod's id as a path parameter of an operation (the `{podId}` a pod guard reads). */
export const ZPodId = z.string().min(1).max(200);

export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE";

export type HttpBinding = {
  method: HttpMethod;
  /**
   * An OpenAPI path template: each `{name}` is an input field of that name. Outside /api/v1 only the
   * doors that protocols or probes fix: OTLP's /v1/traces, /healthz and /readyz, and the agent kit's
   * tarballs under /agent/ (all `handwritten`).
   */
  path: `/api/v1/${string}` | `/v1/${string}` | `/agent/${string}` | "/healthz" | "/readyz";
  /** The status of a success. */
  status: number;
  /** Other statuses answered with the output's schema (e.g. 200 beside 201 for what was there already). */
  also?: number[];
  /**
   * A door whose bytes are not JSON (`handwritten` only): the media types of the request's body
   * (`body` names the input field standing for it) and of the answer, in place of application/json.
   * `response: []`: an answer without a body (HEAD). `error`: a refusal's body when it is not the error
   * envelope (a protocol's own, e.g. OTLP's google.rpc.Status), in the answer's media types.
   */
  media?: { request?: string[]; response?: string[]; error?: z.ZodType };
  /** The input field the JSON body fills. Without it the body's fields are the input's, beside the path's. */
  body?: string;
  /** Input fields read from the query although the method has a body (`handwritten` only). */
  query?: string[];
  /** A large answer: its JSON text is made in slices, the event loop given back between them (same text). */
  sliced?: true;
  /**
   * Served by a route of its own in server/http/, not one made from this declaration: a hot path whose
   * door does what the generic one would do at a cost per request (a 1000-event batch parsed in
   * slices, a long-poll that ends when its caller hangs up). The document, the reference and the
   * browser's route still come from here; the walk still checks its route and guard.
   */
  handwritten?: true;
  /**
   * The same answer as text of another media type: when the query's `field` is `value`, or when the
   * field is not given and the Accept header names `contentType`'s type.
   */
  alternative?: Alternative;
};

export type Alternative = {
  field: string;
  value: string;
  /** The Content-Type answered (its first part is the media type the OpenAPI document lists). */
  contentType: string;
  /** The Content-Disposition answered (e.g. a file name), if any. */
  disposition?: string;
  /** The text, from what `run` answered. A method: each operation's own output type. */
  text(output: never): string;
};

/**
 * What `run` knows of its caller. `actor`: how the caller is named in what it creates. `request`:
 * the caller's request headers (a browser's user agent; Better Auth reads its session cookie).
 * Over HTTP also `podState`, the pod's state as a `{ pod }` guard read it (not read twice).
 */
export type OperationContext = {
  app: AppContext;
  identity: Identity;
  actor: string;
  request: { headers: Headers };
  podState?: PodState | null;
};

export type Operation<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  /** camelCase, unique: the OpenAPI operationId and the server action's name. */
  name: string;
  summary: string;
  /** The feature it belongs to (the OpenAPI tag, the reference's section). */
  tag: string;
  input: I;
  output: O;
  guard: Guard;
  /** What it runs. Only a door served by a route of its own (`http.handwritten`) may go without. */
  run?: (c: OperationContext, input: z.output<I>) => Promise<z.input<O>>;
  http?: HttpBinding;
  /** The control room calls it as a server action (exported from server/web/server-actions.ts). */
  action?: boolean;
};

export type OperationInput<Op> = Op extends Operation<infer I, z.ZodType> ? z.input<I> : never;
export type OperationOutput<Op> = Op extends Operation<z.ZodObject, infer O> ? z.output<O> : never;

/** The `{name}` parameters of a path template, in order. */
export const pathParams = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);

/** Declares an operation; its types flow from the schemas into `run`. A path's names must be input fields. */
export function defineOperation<I extends z.ZodObject, O extends z.ZodType>(
  op: Operation<I, O>,
): Operation<I, O> {
  if (!op.run && !op.http?.handwritten) throw new Error(`operation ${op.name}: nothing runs it`);
  if (!op.run && op.action) throw new Error(`operation ${op.name}: a server action needs its run`);
  if ((op.http?.media || op.http?.query) && !op.http.handwritten)
    throw new Error(
      `operation ${op.name}: only a route of its own has other media than JSON or a query beside a body`,
    );
  if (op.http) {
    const fields = Object.keys(op.input.shape);
    const missing = [...pathParams(op.http.path), ...(op.http.body ? [op.http.body] : [])].filter(
      (p) => !fields.includes(p),
    );
    if (missing.length) throw new Error(`operation ${op.name}: ${missing.join(", ")} not in its input`);
    if (typeof op.guard === "object" && pathParams(op.http.path)[0] !== "podId")
      throw new Error(`operation ${op.name}: a pod guard needs {podId} first in its path`);
  }
  return op;
}

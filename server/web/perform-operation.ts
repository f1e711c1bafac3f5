// The server-action side of the operation tables (server/operations/): who is asking → its
// guard, the same policy as its REST route's → parse with the operation's schema → run as the
// signed-in person → a result the form can show. Free of Next's request APIs (testable with any
// identity); ./operation-action.ts binds it to a server action's request.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import {
  requireAuthenticated,
  requirePerson,
  requireAgent,
  requireCreatePods,
  requirePodAccess,
  requireSiteAdmin,
  type Identity,
  type Verdict,
} from "../domain/access/policy";
import type { Operation, OperationOutput } from "../operations/operation";
import type { CallResult } from "../wire/actions";

const refused = (code: string, error: string) => ({ ok: false as const, code, error });

/** The guard, before the input is parsed (as over REST): a caller refused learns nothing of what the input lacks. */
async function verdictOf(app: AppContext, op: Operation, identity: Identity, raw: unknown): Promise<Verdict> {
  const guard = op.guard;
  if (guard === "public") return { ok: true };
  if (guard === "authenticated") return requireAuthenticated(identity);
  if (guard === "person") return requirePerson(identity);
  if (guard === "site-admin") return requireSiteAdmin(identity);
  if (guard === "pod-creator") return requireCreatePods(identity);
  if (guard === "agent") return requireAgent(identity);
  if (guard === "append")
    return {
      ok: false,
      status: 403,
      code: "forbidden",
      message: "appending needs an agent token of this pod",
    };
  const podId = typeof raw === "object" && raw !== null && "podId" in raw ? raw.podId : undefined;
  if (typeof podId !== "string" || !podId || podId.length > 200)
    return { ok: false, status: 422, code: "invalid_request", message: "podId: the pod's id" };
  return requirePodAccess(identity, podId, await app.store.readState(podId), guard.pod);
}

/**
 * `raw` is whatever the browser sent: the operation's schema decides (its type is the action's, not
 * this door's). `request`: the action's request headers (none where no request is behind it).
 */
export async function performOperation<Op extends Operation>(
  app: AppContext,
  identity: Identity,
  op: Op,
  raw: unknown,
  request?: { headers: Headers },
): Promise<CallResult<OperationOutput<Op>>>;
export async function performOperation(
  app: AppContext,
  identity: Identity,
  op: Operation,
  raw: unknown,
  request: { headers: Headers } = { headers: new Headers() },
): Promise<CallResult<unknown>> {
  if (identity.kind === "anonymous" && op.guard !== "public")
    return refused("unauthenticated", "sign in to act");
  const verdict = await verdictOf(app, op, identity, raw);
  if (!verdict.ok) return refused(verdict.code, verdict.message);
  if (op.guard !== "public" && identity.kind !== "user") return refused("forbidden", "sign in to act");
  // A door served only by a route of its own (server/http/) is no server action.
  if (!op.run) return refused("not_found", "no such action");
  const parsed = op.input.safeParse(raw);
  if (!parsed.success)
    return refused(
      "invalid_request",
      parsed.error.issues
        .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
        .join("; "),
    );
  try {
    return {
      ok: true,
      value: await op.run(
        { app, identity, actor: identity.kind === "user" ? identity.email : "anonymous", request },
        parsed.data,
      ),
    };
  } catch (e) {
    if (e instanceof AppError)
      return refused(
        e.code,
        e.issues?.length ? e.issues.map((i) => `${i.path}: ${i.message}`).join("; ") : e.message,
      );
    console.error("podwatch: server action failed", e);
    return refused("internal", "something went wrong; nothing was changed");
  }
}

// A server action made from an operation: the caller is whoever the request's cookies say, the
// app the custom server published on globalThis (Next bundles server actions apart from it).
// Only server/web/server-actions.ts uses this, one line per operation the control room calls.
import { headers } from "next/headers";
import { appContext } from "../app-context";
import type { Operation, OperationInput, OperationOutput } from "../operations/operation";
import type { CallResult } from "../wire/actions";
import { currentIdentity } from "./current-identity";
import { performOperation } from "./perform-operation";

const OPERATION = Symbol.for("podwatch.operation");
type Marked = { [OPERATION]?: Operation };

export function actionOf<Op extends Operation>(
  op: Op,
): (input: OperationInput<Op>) => Promise<CallResult<OperationOutput<Op>>> {
  const action = async (input: OperationInput<Op>) =>
    performOperation(appContext(), await currentIdentity(), op, input, { headers: await headers() });
  return Object.assign(action, { [OPERATION]: op });
}

/** The operation a server action was made from (the reachability test's check), or null. */
export const operationOfAction = (action: unknown): Operation | null =>
  typeof action === "function" ? ((action as Marked)[OPERATION] ?? null) : null;

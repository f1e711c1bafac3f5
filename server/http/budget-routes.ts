// A pod's budgets over the API: read them with what each uses now; set, change or
// remove one as the caller. People need approver access to the pod; the admin token speaks as
// itself; an agent token may try as its member, and the domain lets the chair or the cost
// controller. The control room's setBudget action calls the same use-case.
import { AppError } from "../domain/errors";
import { atLeast, podAccess } from "../domain/access/policy";
import { ZId } from "../domain/events/seed-formats";
import { listBudgets } from "../budgets/list-budgets";
import { setBudget, type BudgetChange } from "../budgets/set-budget";
import { ZPutBudgetRequest, type BudgetsResponse } from "../wire/budgets";
import { parseWith, readJsonBody, sendJson } from "./json";
import type { Route, RouteContext } from "./route";

const ONE = /^\/api\/v1\/pods\/([^/]+)\/budgets\/([^/]+)$/;

/** Who may try: the agent token's member, the person (an approver) or the admin token; budget.set speaks as them. */
function mayTryBudgets(c: RouteContext): void {
  const id = c.identity;
  if (id.kind === "agent" || id.kind === "admin-token") return;
  if (id.kind === "user" && atLeast(podAccess(id, c.params[0]!, c.podState), "approver")) return;
  throw new AppError(
    403,
    "forbidden",
    id.kind === "share" ? "a share link only reads" : "setting budgets needs approver access to the pod",
  );
}

async function change(c: RouteContext, body: (budgetId: string) => Promise<BudgetChange>) {
  mayTryBudgets(c);
  const budgetId = parseWith(ZId, c.params[1], "budget id");
  const r = await setBudget(c.app, c.params[0]!, await body(budgetId), c.identity, c.podState!);
  sendJson(c.res, 200, r);
}

export const budgetRoutes: Route[] = [
  {
    method: "GET",
    path: /^\/api\/v1\/pods\/([^/]+)\/budgets$/,
    guard: { pod: "viewer" },
    run: async ({ res, podState }) =>
      sendJson(res, 200, { budgets: listBudgets(podState!, Date.now()) } satisfies BudgetsResponse),
  },
  {
    method: "PUT",
    path: ONE,
    guard: { pod: "viewer" },
    run: (c) =>
      change(c, async (budgetId) => ({
        budgetId,
        ...parseWith(ZPutBudgetRequest, await readJsonBody(c.req)),
      })),
  },
  {
    method: "DELETE",
    path: ONE,
    guard: { pod: "viewer" },
    run: (c) => change(c, async (budgetId) => ({ budgetId, limit: null })),
  },
];

// A pod's budgets: read them with what each uses now; set, change or remove one. Declared once:
// the REST routes, the control room's server actions and the reference come from this table.
// Setting one appends budget.set as the caller, and who may is the write path's rule (a person
// with approver access, the chair or the cost controller, the admin token): the guard lets
// people through with approver access and any agent token of the pod try, so an agent of
// another role hears the domain's 409, as it always has.
import { z } from "zod";
import { notFound } from "../domain/errors";
import { ZId } from "../domain/events/seed-formats";
import { defineOperation, ZPodId } from "../operations/operation";
import * as wire from "../wire/budgets";
import { listBudgets } from "./list-budgets";
import { setBudget } from "./set-budget";

const tag = "Budgets";
const SETTERS = { pod: "approver", agents: true } as const;

export const budgetOperations = {
  listBudgets: defineOperation({
    name: "listBudgets",
    summary: "Every budget of the pod with what it uses now (`used`: the meters' figure), oldest set first.",
    tag,
    input: z.object({ podId: ZPodId }),
    output: wire.ZBudgetsResponse,
    guard: { pod: "viewer" },
    http: { method: "GET", path: "/api/v1/pods/{podId}/budgets", status: 200 },
    run: async ({ app, podState }, a) => {
      const state = podState ?? (await app.store.readState(a.podId));
      if (!state) throw notFound("pod");
      return { budgets: listBudgets(state, Date.now()) };
    },
  }),
  setBudget: defineOperation({
    name: "setBudget",
    summary:
      "Sets or changes a budget (budget.set, appended as the caller): `metric` (`tokens`, `cost_usd`, " +
      "`wall_minutes`, `tool_calls`), `limit`, `then` (`notify`, the default, `hold_tools` or `pause_pod`), " +
      "`agentId` for one agent's. Agent tokens may try: the chair and the cost controller may, others get 409. " +
      "422 for an agent that is not a member. Answers the event and the budget as it now stands.",
    tag,
    input: z.object({ podId: ZPodId, budgetId: ZId, ...wire.ZPutBudgetRequest.shape }).strict(),
    output: wire.ZBudgetSetResponse,
    guard: SETTERS,
    http: { method: "PUT", path: "/api/v1/pods/{podId}/budgets/{budgetId}", status: 200 },
    action: true,
    run: ({ app, identity, podState }, { podId, ...change }) =>
      setBudget(app, podId, change, identity, podState ?? undefined),
  }),
  removeBudget: defineOperation({
    name: "removeBudget",
    summary:
      "Removes a budget (a budget.set with `limit: null` that repeats its metric, agent and `then`); " +
      "404 for one the pod does not have. `budget` is null.",
    tag,
    input: z.object({ podId: ZPodId, budgetId: ZId }),
    output: wire.ZBudgetSetResponse,
    guard: SETTERS,
    http: { method: "DELETE", path: "/api/v1/pods/{podId}/budgets/{budgetId}", status: 200 },
    action: true,
    run: ({ app, identity, podState }, a) =>
      setBudget(app, a.podId, { budgetId: a.budgetId, limit: null }, identity, podState ?? undefined),
  }),
};

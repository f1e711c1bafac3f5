// What the control room's budget action does, declared once: the schema it parses, the access it
// needs, and the use-case it calls as the person (the other pod actions are operation tables:
// server/pods/*-operations.ts).
import { definePodCall } from "../pods/perform-pod-action";
import { ZBudgetSetInput } from "../wire/actions";
import { setBudget } from "../budgets/set-budget";

/** Sets, raises or removes a budget (approvers, the domain checks again): the same use-case as PUT/DELETE …/budgets/{budgetId}. */
export const setBudgetCall = definePodCall({
  schema: ZBudgetSetInput,
  need: "approver" as const,
  run: (app, { podId, ...a }, _actor, as) =>
    setBudget(
      app,
      podId,
      a.limit === null ? { budgetId: a.budgetId, limit: null } : { ...a, limit: a.limit },
      as,
    ),
});

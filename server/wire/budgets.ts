// Budgets over the API: what PUT /api/v1/pods/{podId}/budgets/{budgetId} takes and
// what the budget routes answer. The body is budget.set's own (its bounds and defaults), less
// the id the path names; removing is DELETE, so a PUT always sets a limit.
import { z } from "zod";
import { ZBudgetSet } from "../domain/events/event-schemas";
import type { Ack } from "./events";
import type { BudgetView } from "./signals";

const body = ZBudgetSet.shape.body;

export const ZPutBudgetRequest = body
  .omit({ budgetId: true })
  .extend({ limit: body.shape.limit.unwrap() })
  .strict();
export type TPutBudgetRequest = z.infer<typeof ZPutBudgetRequest>;

/** GET …/budgets: every budget of the pod with what it uses now, oldest set first. */
export type BudgetsResponse = { budgets: BudgetView[] };
/** PUT and DELETE …/budgets/{budgetId}: the budget.set appended (and, for a PUT, the budget as it now stands). */
export type BudgetSetResponse = { event: Ack; budget: BudgetView | null };

// Budgets over the API: what PUT /api/v1/pods/{podId}/budgets/{budgetId} takes and
// what the budget routes answer. The body is budget.set's own (its bounds and defaults), less
// the id the path names; removing is DELETE, so a PUT always sets a limit.
import { z } from "zod";
import { ZBudgetSet } from "../domain/events/event-schemas";
import type { Budget } from "../domain/state/pod-state";
import { ZAck } from "./access";
import { agree, type SameType } from "./same-type";

const body = ZBudgetSet.shape.body;

export const ZPutBudgetRequest = body
  .omit({ budgetId: true })
  .extend({ limit: body.shape.limit.unwrap() })
  .strict();
export type TPutBudgetRequest = z.infer<typeof ZPutBudgetRequest>;

const ZAt = { seq: z.number().int(), at: z.string() };

/** A budget with what it uses now (`used`: the meters' figure at the time of the answer). */
export const ZBudgetView = z.object({
  ...ZAt,
  budgetId: z.string(),
  agentId: z.string().nullable(),
  metric: body.shape.metric,
  limit: z.number(),
  then: body.shape.then.unwrap(),
  by: z.string(),
  exceeded: z.object({ ...ZAt, used: z.number() }).nullable(),
  used: z.number(),
  /** A cost budget: the models whose usage came without a cost, which `used` could not count. */
  uncounted: z.array(z.string()),
});
/** A budget with what it uses now (`used`: the meters' figure at the time of the answer). */
export type BudgetView = z.output<typeof ZBudgetView>;
agree<SameType<BudgetView, Budget & { used: number; uncounted: string[] }>>();

/** GET …/budgets: every budget of the pod with what it uses now, oldest set first. */
export const ZBudgetsResponse = z.object({ budgets: z.array(ZBudgetView) });
export type BudgetsResponse = z.infer<typeof ZBudgetsResponse>;
/** PUT and DELETE …/budgets/{budgetId}: the budget.set appended (and, for a PUT, the budget as it now stands). */
export const ZBudgetSetResponse = z.object({ event: ZAck, budget: ZBudgetView.nullable() });
export type BudgetSetResponse = z.infer<typeof ZBudgetSetResponse>;

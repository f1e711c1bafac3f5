// What the control room's site-level server actions do, declared once: the
// schema, the same guard as the API twin, and the use-case they call.
import { requireSiteAdmin } from "../domain/access/policy";
import { setCanCreatePods } from "../access/set-can-create-pods";
import { ZSetCanCreatePodsInput } from "../wire/actions";
import { defineSiteCall } from "./run-site-action";

/** Twin of PATCH /api/v1/users/{id} { canCreatePods }. */
export const setCanCreatePodsCall = defineSiteCall({
  schema: ZSetCanCreatePodsInput,
  guard: requireSiteAdmin,
  run: (app, a) => setCanCreatePods(app.store, a.userId, a.canCreatePods),
});

// What the control room's site-level server actions do, declared once: the
// schema, the same guard as the API twin, and the use-case they call.
import { requireCreatePods } from "../domain/access/policy";
import { createPod } from "../pods/create-pod";
import { podCreator } from "../pods/pod-creator";
import { ZCreatePodRequest } from "../wire/pods";
import { defineSiteCall } from "./run-site-action";

/** Twin of POST /api/v1/pods: the person joins the new pod as its admin. */
export const createPodCall = defineSiteCall({
  schema: ZCreatePodRequest,
  guard: requireCreatePods,
  run: (app, a, person) => createPod(app.store, app.bus, app.append, a, podCreator(person)),
});

// The one chain every server action goes through: who is asking → parse with
// zod → may they, on this pod → append as themselves → a result the form can show.
import type { z } from "zod";
import { appContext, type AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { requirePodAccess, type Identity } from "../domain/access/policy";
import type { Access } from "../domain/events/event-schemas";
import type { ActionResult } from "../wire/actions";
import type { TEvent } from "../wire/events";
import { currentIdentity } from "./current-identity";

export type PodAction<S extends z.ZodType<{ podId: string }>> = {
  schema: S;
  need: Access;
  events: (input: z.infer<S>, actor: string) => TEvent[];
};

/** Declares an action with its schema's types flowing into `events`. */
export const definePodAction = <S extends z.ZodType<{ podId: string }>>(action: PodAction<S>) => action;

/** For server actions: the caller is whoever the request's cookies say. */
export async function runPodAction<S extends z.ZodType<{ podId: string }>>(action: PodAction<S>, raw: unknown): Promise<ActionResult> {
  return performPodAction(appContext(), await currentIdentity(), action, raw);
}

/** The action itself, given who asks (testable without a request). */
export async function performPodAction<S extends z.ZodType<{ podId: string }>>(app: AppContext, identity: Identity, { schema, need, events }: PodAction<S>, raw: unknown): Promise<ActionResult> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, code: "invalid_request", error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  const input = parsed.data;
  const verdict = requirePodAccess(identity, input.podId, await app.store.readState(input.podId), need);
  if (!verdict.ok) return { ok: false, code: verdict.code, error: verdict.message };
  if (identity.kind !== "user") return { ok: false, code: "forbidden", error: "sign in to act" };
  try {
    const acks = await app.append(input.podId, events(input, identity.email));
    return { ok: true, seqs: acks.map((a) => a.seq) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, code: e.code, error: e.message };
    console.error("podwatch: server action failed", e);
    return { ok: false, code: "internal", error: "something went wrong; nothing was recorded" };
  }
}

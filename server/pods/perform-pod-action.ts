// The chain of a person's pod action that is not an operation (server/operations/), given who is
// asking: parse with zod → may they, on this pod → append (or call) as themselves (the write path
// decides what they may append) → a result the form can show. Free of Next's request APIs, so the
// custom server's own doors (a notification's button) run it. Operations that only append build
// on asTheApiWould (./append-operation.ts).
import type { z } from "zod";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { requirePodAccess, type Identity } from "../domain/access/policy";
import { ZEventInput, type Access } from "../domain/events/event-schemas";
import type { ActionResult, CallResult } from "../wire/actions";
import type { TEvent } from "../wire/events";

export type PodAction<S extends z.ZodType<{ podId: string }>> = {
  schema: S;
  need: Access;
  events: (input: z.infer<S>, actor: string) => TEvent[];
};

/** Declares an action with its schema's types flowing into `events`. */
export const definePodAction = <S extends z.ZodType<{ podId: string }>>(action: PodAction<S>) => action;

/** The action itself, given who asks (testable without a request). */
export async function performPodAction<S extends z.ZodType<{ podId: string }>>(
  app: AppContext,
  identity: Identity,
  { schema, need, events }: PodAction<S>,
  raw: unknown,
): Promise<ActionResult> {
  const r = await performPodCall(
    app,
    identity,
    {
      schema,
      need,
      run: async (_app, input, actor, as) =>
        app.append(input.podId, events(input, actor).map(asTheApiWould), as),
    },
    raw,
  );
  return r.ok ? { ok: true, seqs: r.value.map((a) => a.seq) } : r;
}

/**
 * Events an action builds pass the same event schema as the API's (ids, bounds, defaults): the
 * write path takes parsed events, and an action must not store what an agent could not.
 */
export function asTheApiWould(event: TEvent): TEvent {
  const r = ZEventInput.safeParse(event);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new AppError(
    400,
    "invalid_request",
    `this would record an invalid ${event.type}: ${issue.path.join(".")}: ${issue.message}`,
  );
}

/** A server action that calls a use-case (not only appends); what it returns goes back to this caller only. */
export type PodCall<S extends z.ZodType<{ podId: string }>, T> = {
  schema: S;
  need: Access;
  /** `actor`: the person's member id; `as`: who the write path appends as (the signed-in person). */
  run: (app: AppContext, input: z.infer<S>, actor: string, as: Identity) => Promise<T>;
};

export const definePodCall = <S extends z.ZodType<{ podId: string }>, T>(call: PodCall<S, T>) => call;

/** The one chain: parse → may they, on this pod → run as the signed-in person → a result the form can show. */
export async function performPodCall<S extends z.ZodType<{ podId: string }>, T>(
  app: AppContext,
  identity: Identity,
  { schema, need, run }: PodCall<S, T>,
  raw: unknown,
): Promise<CallResult<T>> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      code: "invalid_request",
      error: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
    };
  const input = parsed.data;
  const verdict = requirePodAccess(identity, input.podId, await app.store.readState(input.podId), need);
  if (!verdict.ok) return { ok: false, code: verdict.code, error: verdict.message };
  if (identity.kind !== "user") return { ok: false, code: "forbidden", error: "sign in to act" };
  try {
    return { ok: true, value: await run(app, input, identity.email, identity) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, code: e.code, error: e.message };
    console.error("podwatch: server action failed", e);
    return { ok: false, code: "internal", error: "something went wrong; nothing was recorded" };
  }
}

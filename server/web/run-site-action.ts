// Server actions that are not about one pod's access (who may create pods,
// creating a pod): the same chain as server/pods/perform-pod-action.ts — who is asking → parse
// with zod → may they (the policy's verdict, as the API twin's guard) → call.
import type { z } from "zod";
import { appContext, type AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import type { Identity, Verdict } from "../domain/access/policy";
import type { CallResult } from "../wire/actions";
import { currentIdentity } from "./current-identity";

export type Person = Extract<Identity, { kind: "user" }>;

export type SiteCall<S extends z.ZodType, T> = {
  schema: S;
  /** The same policy function the API route's guard uses. */
  guard: (id: Identity) => Verdict;
  run: (app: AppContext, input: z.infer<S>, person: Person) => Promise<T>;
};

export const defineSiteCall = <S extends z.ZodType, T>(call: SiteCall<S, T>) => call;

export async function runSiteCall<S extends z.ZodType, T>(
  call: SiteCall<S, T>,
  raw: unknown,
): Promise<CallResult<T>> {
  return performSiteCall(appContext(), await currentIdentity(), call, raw);
}

/** The action itself, given who asks (testable without a request). */
export async function performSiteCall<S extends z.ZodType, T>(
  app: AppContext,
  identity: Identity,
  { schema, guard, run }: SiteCall<S, T>,
  raw: unknown,
): Promise<CallResult<T>> {
  if (identity.kind === "anonymous") return { ok: false, code: "unauthenticated", error: "sign in to act" };
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      code: "invalid_request",
      error: parsed.error.issues
        .map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message))
        .join("; "),
    };
  const verdict = guard(identity);
  if (!verdict.ok) return { ok: false, code: verdict.code, error: verdict.message };
  if (identity.kind !== "user") return { ok: false, code: "forbidden", error: "sign in to act" };
  try {
    return { ok: true, value: await run(app, parsed.data, identity) };
  } catch (e) {
    if (e instanceof AppError)
      return {
        ok: false,
        code: e.code,
        error: e.issues?.length ? e.issues.map((i) => `${i.path}: ${i.message}`).join("; ") : e.message,
      };
    console.error("podwatch: server action failed", e);
    return { ok: false, code: "internal", error: "something went wrong; nothing was changed" };
  }
}

// The invite page's server action: anyone holding the link (it is the credential) chooses a
// password. Not an operation (server/access/people-operations.ts has the rest of people): its
// refusals are the form's own sentences, and a failure says to try the link again.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { acceptInvite } from "../access/accept-invite";
import { ZAcceptInviteRequest, type InviteAccepted } from "../wire/access";
import type { CallResult } from "../wire/actions";

/** The invite page: anyone holding the link (it is the credential). */
export async function performAcceptInvite(
  app: AppContext,
  raw: unknown,
): Promise<CallResult<InviteAccepted>> {
  const parsed = ZAcceptInviteRequest.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      code: "invalid_request",
      error: parsed.error.issues.map((i) => i.message).join("; "),
    };
  try {
    return { ok: true, value: await acceptInvite(app.access, parsed.data) };
  } catch (e) {
    if (e instanceof AppError) return { ok: false, code: e.code, error: e.message };
    console.error("podwatch: accepting an invite failed", (e as Error).message);
    return {
      ok: false,
      code: "internal",
      error: "something went wrong; nothing was changed — try the link again",
    };
  }
}

// Appends what a hook means, for the token's member, through the one write path: what Claude Code
// reported as the agent's own word (every rule of an agent token applies), what the route decided
// about the agent's call as the hook route's (a gate, an approval asked, a drained call settled).
import type { AppContext } from "../app-context";
import type { AppendIdentity } from "../domain/access/admit-append";
import { AppError } from "../domain/errors";
import { ZEventBatch } from "../wire/events";
import type { TEventInput } from "../domain/events/event-schemas";
import { parseWith } from "../shared/read-json";

export type HookCaller = { podId: string; memberId: string; tokenId: string };

/** What Claude Code reported: the agent's own word, admitted as its token would be. */
export const agentSays = (who: HookCaller): AppendIdentity => ({ kind: "agent", ...who });
/** What the hook route decided about the agent's call: podwatch's word, written for that member (or as podwatch). */
export const hookRouteSays = (who: HookCaller): AppendIdentity => ({
  kind: "system",
  name: "the hook route",
  member: { podId: who.podId, memberId: who.memberId },
});

export async function appendHookEvents(
  app: AppContext,
  who: HookCaller,
  events: TEventInput[],
  as: AppendIdentity,
) {
  if (!events.length) return [];
  const parsed = parseWith(ZEventBatch, { events }, "hook input").events;
  try {
    return await app.append(who.podId, parsed, as);
  } catch (e) {
    // The pod turned prompt recording off between our read and the append: keep only the length.
    if (e instanceof AppError && e.code === "prompt_text_off")
      return app.append(
        who.podId,
        parsed.map((x) => (x.type === "prompt.submitted" ? { ...x, body: { chars: x.body.chars } } : x)),
        as,
      );
    throw e;
  }
}

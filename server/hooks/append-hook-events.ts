// Appends what a hook means, as the token's member, through the one write path.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { ZEventBatch } from "../wire/events";
import type { TEventInput } from "../domain/events/event-schemas";
import { parseWith } from "../shared/read-json";

export type HookCaller = { podId: string; memberId: string; tokenId: string };

export async function appendHookEvents(app: AppContext, who: HookCaller, events: TEventInput[]) {
  if (!events.length) return [];
  const parsed = parseWith(ZEventBatch, { events }, "hook input").events;
  try {
    return await app.append(who.podId, parsed);
  } catch (e) {
    // The pod turned prompt recording off between our read and the append: keep only the length.
    if (e instanceof AppError && e.code === "prompt_text_off") return app.append(who.podId, parsed.map((x) => (x.type === "prompt.submitted" ? { ...x, body: { chars: x.body.chars } } : x)));
    throw e;
  }
}

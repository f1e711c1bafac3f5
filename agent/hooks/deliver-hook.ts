// One hook payload to podwatch: the spool first (in order), then this one. An observation that
// cannot be sent is spooled and answered {} at once, so the agent never waits on podwatch; a
// gated call that cannot be sent gets the agent's unreachable rule, and its decision is spooled
// to be reported; one podwatch refuses (429, or a 4xx an older server answers) gets the rule too,
// naming the refusal. Whatever happens, the answer comes before `deadline`.
import { PodwatchError } from "../sdk/errors";
import type { HookSender } from "./hook-sender";
import { classify, replaySpool } from "./replay-spool";
import { Spool } from "./spool";
import {
  GATED_EVENTS,
  readRule,
  saveRule,
  unreachableAnswer,
  unreachableReport,
  type Unanswered,
} from "./unreachable-rule";

/** `replayAfter`: podwatch answered, or a replayer was busy; worth sending what the spool holds now. */
export type Delivery = { output: string; exitCode: number; replayAfter: boolean; message?: string };
/** `gated`: the agent's events that decide whether a tool runs (Claude Code's when absent). */
export type Ctx = { spool: Spool; send: HookSender; deadline: number; gated?: ReadonlySet<string> };

/** Observations wait this long for the server before they are spooled. */
const OBSERVATION_IDLE_MS = 5000;
/** What a gated call's hold leaves for the way back. */
const GATED_MARGIN_S = 3;

export async function deliverHook(
  ctx: Ctx,
  payload: Record<string, unknown>,
  body: string,
): Promise<Delivery> {
  const event = String(payload.hook_event_name ?? "");
  const gated = (ctx.gated ?? GATED_EVENTS).has(event);
  // A gated call waits a little for a replayer under way (its events come first); an observation queues behind it.
  // A spool that cannot be read (a folder in its place) must not keep a gated call from podwatch's own decision.
  const replay = await replaySpool(ctx.spool, ctx.send, {
    deadline: ctx.deadline,
    lockWaitMs: gated ? 2000 : 0,
  }).catch((e: unknown) => {
    if (!gated) throw e;
    return "done" as const;
  });
  if (replay === "unreachable" || replay === "slow")
    return gated
      ? unreachable(ctx, payload, event, replay, "while replaying the spool")
      : spooled(ctx, payload, false);
  if (replay === "throttled")
    return gated ? throttled(ctx, event, "while replaying the spool") : spooled(ctx, payload, false);
  if (replay !== "done" && !gated) return spooled(ctx, payload, replay === "busy");
  const left = ctx.deadline - Date.now();
  try {
    const reply = gated
      ? await ctx.send.hook(body, {
          wait: Math.max(1, Math.floor(left / 1000) - GATED_MARGIN_S),
          idleMs: Math.max(1, left),
        })
      : await ctx.send.hook(body, { idleMs: Math.max(1, Math.min(OBSERVATION_IDLE_MS, left)) });
    try {
      saveRule(ctx.spool, reply.unreachable);
    } catch (e) {
      // Caching the rule is for later calls: podwatch's answer to this one stands (an open rule must not replace its deny).
      return {
        output: reply.output,
        exitCode: 0,
        replayAfter: true,
        message: `could not cache the agent's rule beside the spool: ${(e as Error).message}`,
      };
    }
    return { output: reply.output, exitCode: 0, replayAfter: true };
  } catch (e) {
    const failure = classify(e);
    const why = e instanceof PodwatchError ? e.message : String(e);
    if (failure === "unreachable" || failure === "slow")
      return gated ? unreachable(ctx, payload, event, failure, why) : spooled(ctx, payload, false);
    if (failure === "throttled") return gated ? throttled(ctx, event, why) : spooled(ctx, payload, false);
    // Refused (bad token) or rejected: sending it again would fail alike. Exit 1 is Claude Code's
    // non-blocking error (shown to the user); a gated call is answered by the rule, with exit 0.
    const message = `podwatch refused the ${event || "hook"} hook: ${why}`;
    if (gated)
      return {
        output: unreachableAnswer(event, readRule(ctx.spool), `refused: ${why}`, "unchecked"),
        exitCode: 0,
        replayAfter: true,
        message,
      };
    return { output: "", exitCode: 1, replayAfter: true, message };
  }
}

export function spooled(ctx: Ctx, payload: Record<string, unknown>, replayAfter: boolean): Delivery {
  ctx.spool.append([Spool.entry({ kind: "hook", payload })]);
  return { output: "{}", exitCode: 0, replayAfter };
}

export function unreachable(
  ctx: Ctx,
  payload: Record<string, unknown>,
  event: string,
  cause: Unanswered,
  why: string,
): Delivery {
  const rule = readRule(ctx.spool);
  const report = unreachableReport(payload, rule, cause);
  if (report) ctx.spool.append([Spool.entry({ kind: "events", events: [report] })]);
  return { output: unreachableAnswer(event, rule, why, cause), exitCode: 0, replayAfter: false };
}

/** A 429 on a gated call: podwatch refused to check it for now. The agent's rule answers, as the server's own door does; nothing is reported (podwatch heard the call). */
function throttled(ctx: Ctx, event: string, why: string): Delivery {
  const message = `podwatch refused to check this call for now (429 too many requests: ${why})`;
  return {
    output: unreachableAnswer(
      event,
      readRule(ctx.spool),
      `429 too many requests: ${why}; try again in a few seconds`,
      "throttled",
    ),
    exitCode: 0,
    replayAfter: false,
    message,
  };
}

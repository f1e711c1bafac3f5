// `podwatch hook`: a Claude Code "command" hook. Claude Code writes the hook's input JSON on
// stdin and reads our stdout as the hook's output when we exit 0. Exit 2 would BLOCK the agent,
// so this command never uses it. A gated call (PreToolUse, PermissionRequest) is always
// answered with exit 0 and a decision: whatever fails, the agent's unreachable rule decides it
// (closed: deny, open: no opinion); with no pod configured at all, it is denied. Any other
// hook's own failures exit 1, which Claude Code reports and moves past. Runs once per tool
// call, so it loads nothing but node:http and the spool (no schemas).
import { randomUUID } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { deliverHook, spooled, unreachable, type Ctx, type Delivery } from "./deliver-hook";
import { hookSender } from "./hook-sender";
import { readBoundedStdin } from "./read-stdin";
import { fitPayload } from "./fit-payload";
import { replaySpool } from "./replay-spool";
import { reportDropped } from "./report-dropped";
import { spoolTranscriptUsage } from "./report-usage";
import { DEFAULT_SPOOL_MAX_BYTES, Spool } from "./spool";
import { denyAnswer, readRule, unreachableAnswer } from "./unreachable-rule";
import { dialectOf, HOOK_AGENTS, CLAUDE_CODE_DIALECT } from "./hook-dialect";
import { topLevelStrings } from "../../server/wire/top-level-strings";
import { GATED_TIMEOUT_SECONDS, OBSERVATION_TIMEOUT_SECONDS } from "./settings-snippet";

export type HookIo = {
  stdin: NodeJS.ReadableStream;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
};

export const HOOK_INPUT_MAX_BYTES = 4 * 1024 * 1024;
const FAILED = 1; // Claude Code: a non-blocking error

export async function runHook(argv: string[], io: HookIo): Promise<number> {
  const started = Date.now();
  // Read first: which event this is decides how any failure below is answered.
  const input = await readBoundedStdin(io.stdin, HOOK_INPUT_MAX_BYTES);
  // `--agent` says whose hook this is (Claude Code's by default): its door, its gating events, its answers' shape.
  const dialect = dialectOf(argv);
  const { answer, gated: gatingEvents } = dialect ?? CLAUDE_CODE_DIALECT;
  const gatedEvent =
    topLevelStrings(input.text === null ? input.head : Buffer.from(input.text), "hook_event_name").find((e) =>
      gatingEvents.has(e),
    ) ?? null;
  let ruleSpool: Spool | null = null; // where the agent's rule is cached, once PODWATCH_URL and PODWATCH_TOKEN are known
  const fail = (message: string) => {
    io.stderr(`podwatch hook: ${message}\n`);
    if (!gatedEvent) return FAILED;
    const why = `podwatch hook could not check this call: ${message}`;
    io.stdout(
      `${answer(ruleSpool ? unreachableAnswer(gatedEvent, readRule(ruleSpool), message, "unchecked") : denyAnswer(gatedEvent, `${why}; with no pod to ask, it is denied`))}\n`,
    );
    return 0;
  };
  let values: { timeout?: string; "usage-only"?: boolean; url?: string; token?: string; agent?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        timeout: { type: "string" },
        "usage-only": { type: "boolean" },
        url: { type: "string" },
        token: { type: "string" },
        agent: { type: "string" },
      },
      strict: true,
    }));
  } catch (e) {
    return fail((e as Error).message);
  }
  if (!dialect) return fail(`--agent takes ${HOOK_AGENTS.join(", ")}, not "${values.agent}"`);
  const url = values.url ?? io.env.PODWATCH_URL ?? "";
  const token = values.token ?? io.env.PODWATCH_TOKEN ?? "";
  if (!/^https?:\/\/[^/]/.test(url))
    return fail("set PODWATCH_URL to podwatch's address, e.g. http://127.0.0.1:3000");
  if (!token) return fail("set PODWATCH_TOKEN to an agent token of the pod");
  const spoolRoot = io.env.PODWATCH_SPOOL_DIR || join(homedir(), ".podwatch", "spool");
  const spool = (ruleSpool = new Spool(
    dialect.spoolFolder ? join(spoolRoot, dialect.spoolFolder) : spoolRoot,
    url,
    token,
    Number(io.env.PODWATCH_SPOOL_MAX_BYTES) || DEFAULT_SPOOL_MAX_BYTES,
  ));
  if (input.text === null)
    return fail(`the hook input is larger than ${HOOK_INPUT_MAX_BYTES / 1024 / 1024} MiB; not sent`);
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(input.text) as Record<string, unknown>;
    if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new Error("not an object");
  } catch {
    return fail("stdin is not Claude Code's hook input (a JSON object)");
  }

  // The server derives an event's id from the payload when it has no tool_use_id: two identical
  // notifications or prompts of one session would be one event. A field of ours, fixed before the
  // first attempt and kept in the spool, keeps them apart and a replay of either idempotent.
  if (typeof payload.podwatch_hook_id !== "string") payload.podwatch_hook_id = randomUUID();
  // When it happened: a hook spooled while podwatch was down is replayed later under its own time (the event's ts).
  if (typeof payload.podwatch_hook_ts !== "string") payload.podwatch_hook_ts = new Date().toISOString();
  let body: string;
  try {
    body = fitPayload(payload);
  } catch (e) {
    // JSON.parse takes nesting that JSON.stringify cannot walk back (RangeError): a gated call still gets the rule.
    return fail(`the hook input cannot be sent on (${(e as Error).message})`);
  }
  const event = String(payload.hook_event_name ?? "");
  const gated = dialect.gated.has(event);
  const budgetS = Number(
    values.timeout ??
      io.env.PODWATCH_HOOK_TIMEOUT ??
      (gated
        ? GATED_TIMEOUT_SECONDS
        : OBSERVATION_TIMEOUT_SECONDS) /* Claude Code's own timeouts for our entries (settings-snippet.ts writes them) */,
  );
  if (!Number.isFinite(budgetS) || budgetS <= 0)
    return fail(`--timeout takes seconds, got ${values.timeout}`);
  // Answer before Claude Code gives up on us: a fifth of the budget back, at most 3 s.
  const deadline = started + budgetS * 1000 - Math.min(3000, budgetS * 200);
  const ctx = { spool, send: hookSender(url, token, dialect.route), deadline, gated: dialect.gated };

  const work = async (): Promise<Delivery> => {
    const d: Delivery = values["usage-only"]
      ? { output: "{}", exitCode: 0, replayAfter: true }
      : await deliverHook(ctx, payload, body);
    const usage = dialect.usageEvents.has(event)
      ? spoolTranscriptUsage(spool, payload, undefined, dialect.usageLine)
      : 0;
    if (d.replayAfter || usage) {
      try {
        const r = await replaySpool(spool, ctx.send, { deadline, lockWaitMs: 0 });
        if (r === "done") await reportDropped(spool, ctx.send, deadline);
      } catch (e) {
        // podwatch already decided this gated call: a broken spool does not replace its answer.
        if (!gated) throw e;
        return { ...d, message: `the spool at ${spool.dir} failed: ${(e as Error).message}` };
      }
    }
    return d;
  };
  let d: Delivery;
  try {
    d = await withDeadline(work(), deadline, () =>
      lateAnswer(ctx, payload, event, gated, values["usage-only"] === true),
    );
  } catch (e) {
    // The spool itself failed (a full disk, a folder we may not write): say so, and decide a gated call by the rule.
    const why = `the spool at ${spool.dir} failed: ${(e as Error).message}`;
    d = gated
      ? {
          output: unreachableAnswer(event, readRule(spool), why),
          exitCode: 0,
          replayAfter: false,
          message: why,
        }
      : { output: "", exitCode: FAILED, replayAfter: false, message: why };
  }
  if (d.message) io.stderr(`podwatch hook: ${d.message}\n`);
  if (d.output) io.stdout(`${answer(d.output)}\n`);
  return d.exitCode;
}

/** At the deadline: a gated call gets the unreachable rule (podwatch did not answer in time), an observation is kept in the spool (a repeat is harmless). */
function lateAnswer(
  ctx: Ctx,
  payload: Record<string, unknown>,
  event: string,
  gated: boolean,
  usageOnly: boolean,
): Delivery {
  if (usageOnly) return { output: "{}", exitCode: 0, replayAfter: false };
  return gated
    ? unreachable(ctx, payload, event, "slow", "no answer before the hook's timeout")
    : spooled(ctx, payload, false);
}

function withDeadline<T>(work: Promise<T>, deadline: number, late: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(late()), Math.max(0, deadline - Date.now()));
    work.then(
      (v) => (clearTimeout(timer), resolve(v)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

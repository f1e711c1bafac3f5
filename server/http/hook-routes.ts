// Agents' hooks (Claude Code's http hooks; Codex's and Gemini CLI's command hooks through `podwatch hook`). The agent token names the pod and the member, so the
// path names neither; the body is Claude Code's hook input as it sends it. A gated call always
// gets a 200 with a decision: whatever fails before one is evaluated answers by the pod's
// unreachable rule (server/hooks/answer-unchecked-call.ts), since Claude Code runs the tool on any
// other status. Observations, and replays from a command hook's spool, keep their 4xx.
import type { IncomingMessage } from "node:http";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { handleClaudeCodeHook } from "../hooks/handle-claude-code-hook";
import { HeldCalls } from "../hooks/held-calls";
import {
  CLAUDE_CODE_DOOR,
  gatingEventOf,
  uncheckedAnswer,
  whyUnchecked,
  type GatedDoor,
} from "../hooks/answer-unchecked-call";
import type { AgentKind } from "../domain/vocabulary";
import {
  HOOK_BODY_MAX_BYTES,
  UNREACHABLE_HEADER,
  ZHookQuery,
  type ClaudeCodeHookOutput,
} from "../wire/hooks";
import { dropRestOfBody } from "./drop-rest-of-body";
import { parseJsonBytes, parseWith, readBody, sendJson } from "./json";
import type { FailedContext, Route } from "./route";

const heldByApp = new WeakMap<AppContext, HeldCalls>();
/** The gated calls this server holds open, per agent token. */
export const heldCalls = (app: AppContext) =>
  heldByApp.get(app) ?? (heldByApp.set(app, new HeldCalls()), heldByApp.get(app)!);

/** How much of a body that was refused or never read is looked at to learn its event. */
const SCAN_BYTES = 64 * 1024;
/** How long a failed request's unread body is waited for, to learn its event. */
const SCAN_WAIT_MS = 5000;
/** The bytes of each hook body as far as they were read, for its failure's answer. */
const bodies = new WeakMap<IncomingMessage, Buffer>();

/** One agent's hook door: its body put in Claude Code's shape (`normalise`), handled as that agent's, answered in its shape (`answer`). */
export type HookDoor = {
  path: RegExp;
  agent: AgentKind;
  door: GatedDoor;
  normalise: (body: unknown) => unknown;
  answer?: (output: ClaudeCodeHookOutput) => unknown;
};

export function hookRoute(d: HookDoor): Route {
  return {
    method: "POST",
    path: d.path,
    guard: "authenticated",
    run: async ({ app, req, res, url, identity }) => {
      if (identity.kind !== "agent")
        throw new AppError(
          403,
          "agent_token_required",
          "agent hooks report with an agent token of the pod (Authorization: Bearer <token>); people and admin tokens do not",
        );
      // A held call ends when its caller hangs up. Checked before the body is read: a request read to its end counts as destroyed.
      const closed = new AbortController();
      // Only a caller that hung up before its answer aborts the wait: aborting after every answer
      // built a DOMException per request (measured: ~2 % of the server's time under hook load).
      res.on("close", () => void (res.writableFinished || closed.abort()));
      if (req.destroyed || res.destroyed) closed.abort();
      const bytes = await readBody(req, HOOK_BODY_MAX_BYTES, (head) =>
        bodies.set(req, head.subarray(0, SCAN_BYTES)),
      );
      bodies.set(req, bytes);
      const q = parseWith(ZHookQuery, Object.fromEntries(url.searchParams), "query");
      const body = d.normalise(parseJsonBytes(bytes));
      const who = { podId: identity.podId, memberId: identity.memberId, tokenId: identity.tokenId };
      const options = {
        agent: d.agent,
        waitSeconds: q.wait,
        replay: q.replay === "1",
        signal: closed.signal,
        drain: app.drain.signal,
        held: heldCalls(app),
        heldKey: identity.tokenId,
      };
      const answer = await handleClaudeCodeHook(app, who, body, options);
      if (answer === "aborted" || res.destroyed) return;
      res.setHeader(UNREACHABLE_HEADER, answer.unreachable);
      sendJson(res, 200, d.answer ? d.answer(answer.output) : answer.output);
    },
    failed: (ctx, e) => answerUnchecked(d.door, ctx, e),
  };
}

export const hookRoutes: Route[] = [
  hookRoute({
    path: /^\/api\/v1\/hooks\/claude-code$/,
    agent: "claude-code",
    door: CLAUDE_CODE_DOOR,
    normalise: (body) => body,
  }),
];

/** A gated call that failed before a decision gets the pod's unreachable rule with a 200; anything else, its error. */
async function answerUnchecked(
  door: GatedDoor,
  { app, req, res, url, identity }: FailedContext,
  e: unknown,
): Promise<void> {
  if (res.headersSent || res.destroyed || url.searchParams.get("replay") === "1") throw e;
  const event = gatingEventOf(door, bodies.get(req) ?? (await readHead(req)));
  if (!event) throw e;
  if (!(e instanceof AppError))
    console.error("podwatch: a gated hook failed before its decision; answering by the unreachable rule", e);
  const answer = await uncheckedAnswer(
    app,
    door,
    event,
    identity.kind === "agent" ? identity : null,
    whyUnchecked(e),
  );
  if (res.headersSent || res.destroyed) return;
  res.removeHeader("retry-after");
  if (answer.unreachable) res.setHeader(UNREACHABLE_HEADER, answer.unreachable);
  // A client still sending a refused body reads this answer only if the rest is taken in (see dropRestOfBody).
  if (!req.complete) dropRestOfBody(res);
  sendJson(res, 200, answer.output);
}

/** The first bytes of a body nobody has read yet (a request refused before its route ran); empty when it was read already. */
function readHead(req: IncomingMessage): Promise<Buffer> {
  if (req.readableEnded || req.destroyed || req.readableFlowing !== null)
    return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      req.off("data", onData).off("end", done).off("error", done);
      req.pause();
      resolve(Buffer.concat(chunks).subarray(0, SCAN_BYTES));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      if ((size += chunk.length) >= SCAN_BYTES) done();
    };
    const timer = setTimeout(done, SCAN_WAIT_MS);
    req.on("data", onData).on("end", done).on("error", done);
  });
}

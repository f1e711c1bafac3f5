// Claude Code's http hooks (issue 15). The agent token names the pod and the member, so the
// path names neither; the body is Claude Code's hook input as it sends it.
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";
import { handleClaudeCodeHook } from "../hooks/handle-claude-code-hook";
import { HeldCalls } from "../hooks/held-calls";
import { HOOK_BODY_MAX_BYTES, UNREACHABLE_HEADER, ZHookQuery } from "../wire/hooks";
import { parseWith, readJsonBody, sendJson } from "./json";
import type { Route } from "./route";

const heldByApp = new WeakMap<AppContext, HeldCalls>();
/** The gated calls this server holds open, per agent token. */
export const heldCalls = (app: AppContext) => heldByApp.get(app) ?? (heldByApp.set(app, new HeldCalls()), heldByApp.get(app)!);

export const hookRoutes: Route[] = [
  {
    method: "POST",
    path: /^\/api\/v1\/hooks\/claude-code$/,
    guard: "authenticated",
    run: async ({ app, req, res, url, identity }) => {
      if (identity.kind !== "agent") throw new AppError(403, "agent_token_required", "Claude Code hooks report with an agent token of the pod (Authorization: Bearer <token>); people and admin tokens do not");
      const q = parseWith(ZHookQuery, Object.fromEntries(url.searchParams), "query");
      // A held call ends when its caller hangs up. Checked before the body is read: a request read to its end counts as destroyed.
      const closed = new AbortController();
      // Only a caller that hung up before its answer aborts the wait: aborting after every answer
      // built a DOMException per request (measured: ~2 % of the server's time under hook load).
      res.on("close", () => void (res.writableFinished || closed.abort()));
      if (req.destroyed || res.destroyed) closed.abort();
      const body = await readJsonBody(req, HOOK_BODY_MAX_BYTES);
      const who = { podId: identity.podId, memberId: identity.memberId, tokenId: identity.tokenId };
      const options = { waitSeconds: q.wait, replay: q.replay === "1", signal: closed.signal, held: heldCalls(app), heldKey: identity.tokenId };
      const answer = await handleClaudeCodeHook(app, who, body, options);
      if (answer === "aborted" || res.destroyed) return;
      res.setHeader(UNREACHABLE_HEADER, answer.unreachable);
      sendJson(res, 200, answer.output);
    },
  },
];

// A POST's stream cut before its answers were sent: the client may come back
// (GET with Last-Event-ID) and collect them from the session's event store, so
// its calls keep running for a grace period; if it has not resumed by then, the
// calls are cancelled as if the client had sent notifications/cancelled, so a
// waiting escalate does not hold a long-poll for nobody.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpSession } from "./open-mcp-session";

type Message = { id?: unknown; method?: unknown };

/** The ids of the requests (calls) in a POST's body: its notifications and responses have none. */
export function requestIds(body: unknown): (string | number)[] {
  return (Array.isArray(body) ? body : [body])
    .filter((m): m is Message => typeof m === "object" && m !== null)
    .filter((m) => typeof m.method === "string" && (typeof m.id === "string" || typeof m.id === "number"))
    .map((m) => m.id as string | number);
}

export function cancelIfNotResumed(session: McpSession, body: unknown, graceMs: number) {
  const ids = requestIds(body);
  if (!ids.length) return;
  const cutAt = Date.now();
  const timer = setTimeout(() => {
    if (session.lifetime.signal.aborted || session.lastResumeAt >= cutAt) return;
    for (const requestId of ids) {
      const cancel: JSONRPCMessage = {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "the client's connection closed and it did not resume" },
      };
      session.transport.onmessage?.(cancel);
    }
  }, graceMs);
  timer.unref();
  session.lifetime.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
}

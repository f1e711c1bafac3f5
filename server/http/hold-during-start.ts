// What the server answers before it is ready. Anything else gets 503 and comes back, but a gated
// tool call must not: Claude Code runs the tool when its HTTP hook answers non-2xx, so a 503 from a
// server that is still starting would let a call run that the pod's rules may deny. Hook calls wait
// (their bodies unread, so the socket holds them) until the real handler is in place, up to a
// bound; past it they get the 503 like the rest.
import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Hook calls held at once while starting; a start takes seconds, so this is a burst's worth. */
export const MAX_HELD_DURING_START = 256;

const isHookCall = (req: IncomingMessage) =>
  req.method === "POST" && (req.url ?? "").startsWith("/api/v1/hooks/");

/** `handle` answers before `ready` is called; `ready(real)` passes the held hook calls to `real`. */
export function holdDuringStart(): {
  handle: Handler;
  ready: (real: Handler) => void;
  waiting: () => number;
} {
  const held: [IncomingMessage, ServerResponse][] = [];
  let real: Handler | null = null;
  const handle: Handler = (req, res) => {
    if (real) return real(req, res);
    if (isHookCall(req) && held.length < MAX_HELD_DURING_START) {
      held.push([req, res]);
      res.once("close", () => {
        const at = held.findIndex(([, r]) => r === res);
        if (at >= 0) held.splice(at, 1);
      });
      return;
    }
    res.writeHead(503, { "retry-after": "1" }).end();
  };
  const ready = (handler: Handler) => {
    real = handler;
    for (const [req, res] of held.splice(0)) if (!res.destroyed) handler(req, res);
  };
  return { handle, ready, waiting: () => held.length };
}

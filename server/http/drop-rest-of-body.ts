// After refusing a request whose client is still sending its body (413): closing the connection
// at once makes the kernel answer the bytes still arriving with a reset, and a reset also throws
// away what the client has not read yet — the 413 itself (it sees EPIPE, never the answer). So
// the rest of the body is read and dropped for a little while, then the connection is cut if it
// has not ended by then: at most LINGER_MS and LINGER_BYTES per refused request.
import type { IncomingMessage, ServerResponse } from "node:http";

const LINGER_MS = 2000;
const LINGER_BYTES = 16 * 1024 * 1024;

export function dropRestOfBody(res: ServerResponse) {
  const req: IncomingMessage | undefined = res.req;
  if (!req || req.complete || req.destroyed) return;
  let dropped = 0;
  const cut = () => {
    clearTimeout(timer);
    req.socket.destroy();
  };
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  req.on("data", (chunk: Buffer) => {
    if ((dropped += chunk.length) > LINGER_BYTES) cut();
  });
  req.once("end", () => clearTimeout(timer));
  req.once("close", () => clearTimeout(timer));
  req.resume();
}

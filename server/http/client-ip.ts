import type { IncomingMessage } from "node:http";

/** The peer's address. Proxy headers are not trusted: podwatch is reached directly or behind a proxy that rate limits itself. */
export const clientIp = (req: IncomingMessage) => req.socket.remoteAddress ?? "unknown";

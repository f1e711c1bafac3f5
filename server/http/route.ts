import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../app-context";

export type RouteContext = { app: AppContext; req: IncomingMessage; res: ServerResponse; params: string[]; url: URL };
export type Route = { method: string; path: RegExp; run: (c: RouteContext) => Promise<void> };

/** Who is speaking for requests that carry no event envelope (until tokens identify agents). */
export function actorOf(req: IncomingMessage): string {
  const h = req.headers["x-podwatch-actor"];
  return typeof h === "string" && h.trim() ? h.trim().slice(0, 200) : "api";
}

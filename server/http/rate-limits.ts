// The two limits every door applies, said once: failed authentications per IP (so a token cannot
// be guessed; a valid credential is never refused for its IP's failures), and requests per key
// (a token, else an IP). Each refusal is a 429 with Retry-After.
import type { ServerResponse } from "node:http";
import type { AppContext } from "../app-context";
import { AppError } from "../domain/errors";

type Refusal = { msBeforeNext?: number };

export async function countFailedAuth(app: AppContext, ip: string, res: ServerResponse): Promise<void> {
  await app.access.limits.authFailures.consume(ip).catch((r: Refusal) => {
    res.setHeader("retry-after", String(Math.max(1, Math.ceil((r.msBeforeNext ?? 60_000) / 1000))));
    throw new AppError(429, "rate_limited", "too many failed authentications; try again in a minute");
  });
}

export async function takeRequest(app: AppContext, key: string, res: ServerResponse): Promise<void> {
  await app.access.limits.perKey.consume(key).catch((r: Refusal) => {
    res.setHeader("retry-after", String(Math.ceil((r.msBeforeNext ?? 1000) / 1000)));
    throw new AppError(429, "rate_limited", "too many requests; slow down");
  });
}

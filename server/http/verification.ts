// Walking a tape or re-hashing a blob is cheap once and a lever when fired many
// times at once: both go through the server's verification slots, one walk in
// flight per caller (429 with Retry-After beyond it).
import { AppError } from "../domain/errors";
import type { RouteContext } from "./route";

/** Who is verifying: a token, a person or a share link; else (an admin token) the IP. */
function caller({ app, identity, req }: RouteContext): string {
  if (identity.kind === "agent") return `token:${identity.tokenId}`;
  if (identity.kind === "user") return `user:${identity.userId}`;
  if (identity.kind === "share") return `share:${identity.linkId}`;
  return `ip:${app.access.clientIp(req)}`;
}

export function runVerification<T>(c: RouteContext, verify: () => Promise<T>): Promise<T> {
  return c.app.verifications.run(caller(c), verify).catch((e) => {
    if (e instanceof AppError && e.status === 429) c.res.setHeader("retry-after", "1");
    throw e;
  });
}

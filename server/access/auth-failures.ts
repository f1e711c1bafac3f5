// Failed authentications are counted per IP. Past the limit, a presented
// credential is refused unchecked, over HTTP and sockets alike: guessing is
// throttled, not merely answered differently (a right guess gets no answer either).
import type { RateLimiterMemory } from "rate-limiter-flexible";

/** Milliseconds until this IP may try a credential again, or null while it is under the limit. */
export async function lockedOutFor(failures: RateLimiterMemory, ip: string): Promise<number | null> {
  const seen = await failures.get(ip);
  return seen && seen.consumedPoints >= failures.points ? Math.max(1000, seen.msBeforeNext) : null;
}

// A verification walks a whole tape: cheap for one caller, a lever for a caller
// who fires many at once. Each caller gets one verification in flight, and the
// process a handful; more is refused (429), never queued without bound.
import { AppError } from "../domain/errors";

const PER_PROCESS = 8;

export class VerificationSlots {
  private readonly busy = new Set<string>();

  /** Runs `verify` for `caller` (a token, a person, an IP), or refuses while that caller already has one running. */
  async run<T>(caller: string, verify: () => Promise<T>): Promise<T> {
    if (this.busy.has(caller)) throw busy("a verification of yours is still running; wait for its answer");
    if (this.busy.size >= PER_PROCESS) throw busy("too many verifications are running; try again shortly");
    this.busy.add(caller);
    try {
      return await verify();
    } finally {
      this.busy.delete(caller);
    }
  }
}

/** Over HTTP, Retry-After: 1. */
function busy(message: string) {
  return Object.assign(new AppError(429, "verification_in_progress", message), { retryAfterSeconds: 1 });
}

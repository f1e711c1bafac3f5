// Recomputing signals (as of a seq, over a window, a signed record) replays a whole tape: cheap
// once, a lever when fired many times at once. A server runs at most MAX_RECOMPUTATIONS at a
// time, whoever asks; beyond that it answers 503 with Retry-After rather than queueing work.
// One per server, on its AppContext (beside the verification and OTLP export slots).
import { AppError } from "../domain/errors";

export const MAX_RECOMPUTATIONS = 2;
export const RECOMPUTE_RETRY_AFTER_SECONDS = 2;

export class RecomputeBusy extends AppError {
  /** Over HTTP, the Retry-After header. */
  readonly retryAfterSeconds = RECOMPUTE_RETRY_AFTER_SECONDS;
  constructor() {
    super(
      503,
      "recompute_busy",
      "the server is already recomputing signals for others; try again in a moment",
    );
  }
}

export class RecomputeSlots {
  private running = 0;

  constructor(private readonly max = MAX_RECOMPUTATIONS) {}

  /** Runs `work` in one of the server's recomputation slots, or throws RecomputeBusy. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) throw new RecomputeBusy();
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
    }
  }

  /** Recomputations under way. */
  underWay() {
    return this.running;
  }
}

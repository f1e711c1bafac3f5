// Uploads into PostgreSQL hold a pooled connection each, so only a few may run at once:
// the tape needs the rest of the pool. These slots are shared fairly and never waited for
// without end, since a waiting request's body sits unread on its socket.
import { AppError } from "../domain/errors";

/** A slot did not come free in time: the client should come back later (503 with Retry-After). */
export class UploadsBusy extends AppError {
  readonly retryAfterSeconds = 5;
  constructor(why: string) {
    super(503, "blob_uploads_busy", `${why}; try again shortly`);
  }
}

export type SlotLimits = { slots: number; waitMs: number; maxWaiting: number };

/**
 * At most `slots` uploads hold a connection, and at most one of them per caller: a caller's second
 * upload waits until its first ends, so one token cannot fill every slot. A wait is bounded in time
 * (then 503) and in number (a full queue answers 503 at once), so stalled uploads cannot pile up
 * requests either. While an upload waits its body waits unread.
 */
export class UploadSlots {
  private free: number;
  private readonly holding = new Map<string, number>();
  private readonly waiting: { caller: string; grant: () => void }[] = [];

  constructor(private readonly limits: SlotLimits) {
    this.free = limits.slots;
  }

  take(caller: string): Promise<void> {
    if (this.free > 0 && !this.holding.has(caller)) return Promise.resolve(this.hold(caller));
    if (this.waiting.length >= this.limits.maxWaiting)
      return Promise.reject(new UploadsBusy("too many blob uploads are waiting"));
    return new Promise<void>((resolve, reject) => {
      const waiter = { caller, grant: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(
          new UploadsBusy(
            this.holding.has(caller)
              ? "your previous blob upload is still running"
              : "every blob upload slot is busy",
          ),
        );
      }, this.limits.waitMs);
      this.waiting.push(waiter);
    });
  }

  give(caller: string) {
    const held = (this.holding.get(caller) ?? 1) - 1;
    if (held > 0) this.holding.set(caller, held);
    else this.holding.delete(caller);
    this.free++;
    for (let i = 0; this.free > 0 && i < this.waiting.length;) {
      const next = this.waiting[i]!;
      if (this.holding.has(next.caller)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.hold(next.caller);
      next.grant();
    }
  }

  private hold(caller: string) {
    this.free--;
    this.holding.set(caller, (this.holding.get(caller) ?? 0) + 1);
  }
}

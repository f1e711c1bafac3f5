// The HTTP requests a node is still answering, so a drain can wait for them (and no longer).
import type { ServerResponse } from "node:http";

export class RequestsInFlight {
  private count = 0;
  private readonly onIdle = new Set<() => void>();

  /** Counts `res` until it is finished or its connection is gone. */
  track(res: ServerResponse) {
    this.count++;
    // One listener for every response ('close' comes once each), not a closure made per request.
    res.on("close", this.closed);
  }

  private readonly closed = () => {
    if (--this.count > 0) return;
    for (const wake of this.onIdle) wake();
  };

  /** Resolves true once none is in flight, or false when `ms` pass first. */
  settled(ms: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        this.onIdle.delete(wake);
        resolve(idle);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.onIdle.add(wake);
    });
  }
}

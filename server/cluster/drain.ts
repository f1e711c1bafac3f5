// A node's drain, begun on SIGTERM: from then on /readyz answers 503 `draining` (a reverse
// proxy's health check sends new work elsewhere), waits in flight (long-polls) end early with
// what they have, and the node closes once its requests are done or config.drainMs pass.
export class Drain {
  private readonly controller = new AbortController();

  get draining(): boolean {
    return this.controller.signal.aborted;
  }

  /** Aborted when the drain begins: a wait passes it on so it ends at once rather than holding the node open. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  begin() {
    this.controller.abort();
  }
}

// How many gated calls one agent token may have held open at once: each is an open request
// and a bus listener, so a runaway agent (or a stolen token) cannot pile them up.
import { AppError } from "../domain/errors";

export const MAX_HELD_PER_TOKEN = 64;
export const HELD_RETRY_AFTER_SECONDS = 5;

export class HeldCalls {
  private readonly held = new Map<string, number>();

  /** Takes a slot for `key` (429 when it has none left); call the returned release exactly once. */
  acquire(key: string): () => void {
    const n = this.held.get(key) ?? 0;
    if (n >= MAX_HELD_PER_TOKEN) throw new AppError(429, "too_many_held_calls", `this token already has ${MAX_HELD_PER_TOKEN} tool calls waiting for an answer; try again in a few seconds`);
    this.held.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left > 0) this.held.set(key, left);
      else this.held.delete(key);
    };
  }

  count(key: string): number {
    return this.held.get(key) ?? 0;
  }
}

// How many gated calls one agent token may have held open at once: each is an open request
// and a bus listener, so a runaway agent (or a stolen token) cannot pile them up.

export const MAX_HELD_PER_TOKEN = 64;

export class HeldCalls {
  private readonly held = new Map<string, number>();

  /**
   * Takes a slot for `key`: null when it has none left (the gate then denies, never an error —
   * Claude Code lets a call through when its http hook answers anything but 2xx). Call the
   * returned release exactly once.
   */
  acquire(key: string): (() => void) | null {
    const n = this.held.get(key) ?? 0;
    if (n >= MAX_HELD_PER_TOKEN) return null;
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

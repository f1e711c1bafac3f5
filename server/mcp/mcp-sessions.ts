// The remote MCP sessions of this server, each owned by the agent token that
// opened it. Bounded per token, per pod (so one pod's many tokens cannot take
// the whole server's share) and in all; a session idle too long, whose token
// was revoked, or that its client DELETEd is closed, and closing one aborts its
// calls in flight (a waiting escalate included). In memory, per node: a client
// whose session is gone gets 404 and, as the spec has it, starts a new one.
import { randomUUID } from "node:crypto";
import { AppError } from "../domain/errors";
import { openMcpSession, type McpSession, type Owner } from "./open-mcp-session";
import { EventBudgets } from "./event-budget";
import { EVENT_STORE_BOUNDS } from "./session-event-store";

export type McpLimits = {
  perToken: number;
  /** A pod with many agents (or one admin minting tokens) still leaves the server's other pods room. */
  perPod: number;
  total: number;
  idleMs: number;
  /** How long a call whose connection dropped waits for its client to resume before it is cancelled. */
  resumeGraceMs: number;
  sweepMs: number;
  /** Requests under way in one session at once (each of a batch counts). */
  callsPerSession: number;
  /** Messages kept for resumption (Last-Event-ID), per session, in events and bytes. */
  eventsPerSession: number;
  eventBytesPerSession: number;
  /** The same, over all of a pod's sessions and over the server's: the oldest of them go first. */
  eventBytesPerPod: number;
  eventBytesTotal: number;
};
export const MCP_LIMITS: McpLimits = {
  perToken: 16,
  perPod: 64,
  total: 500,
  idleMs: 30 * 60_000,
  resumeGraceMs: 30_000,
  sweepMs: 60_000,
  // An agent runs its tools one or a few at a time; a wait holds one for up to 50 s.
  callsPerSession: 16,
  eventsPerSession: EVENT_STORE_BOUNDS.maxEvents,
  eventBytesPerSession: EVENT_STORE_BOUNDS.maxBytes,
  // Eight full sessions' worth (16 MiB): a pod holds up to `perPod` sessions, and they share this.
  eventBytesPerPod: 8 * EVENT_STORE_BOUNDS.maxBytes,
  // For every pod's sessions together: `total` full sessions would pin 1 GiB.
  eventBytesTotal: 128 * 1024 * 1024,
};

export class McpSessions {
  private sessions = new Map<string, McpSession>();
  /** Sessions being opened (not yet initialized): counted against the bounds so a burst cannot overshoot them. */
  private opening = new Map<string, number>();
  private openingInPod = new Map<string, number>();
  private sweeper: NodeJS.Timeout;
  readonly eventBudgets: EventBudgets;

  constructor(
    private readonly loopbackUrl: string,
    private readonly stillValid: (tokenId: string) => Promise<boolean>,
    readonly limits: McpLimits = MCP_LIMITS,
  ) {
    this.eventBudgets = new EventBudgets(limits.eventBytesPerPod, limits.eventBytesTotal);
    this.sweeper = setInterval(() => void this.sweep(), limits.sweepMs).unref();
  }

  /** The caller's session: unknown, ended, or another token's are all "not found" (404), so ids leak nothing. */
  find(id: string, owner: Owner): McpSession | null {
    const s = this.sessions.get(id);
    return s && s.owner.tokenId === owner.tokenId ? s : null;
  }

  /** A session presented with its own token after that token was revoked: ended at once. */
  async endIfOwnedBy(id: string, secret: string) {
    const s = this.sessions.get(id);
    if (s && s.owner.secret === secret) await this.end(s);
  }

  /**
   * A new, not yet initialized session for `owner`. At its token's bound, the token's longest-idle
   * session with nothing in flight makes room (an agent that crashed never said goodbye);
   * if all are busy, or the pod or the server is full, it is refused.
   */
  async open(owner: Owner): Promise<McpSession> {
    const mine = [...this.sessions.values()].filter((s) => s.owner.tokenId === owner.tokenId);
    const opening = this.opening.get(owner.tokenId) ?? 0;
    if (mine.length + opening >= this.limits.perToken) {
      const idle = mine.filter((s) => s.inFlight === 0).sort((a, b) => a.lastSeen - b.lastSeen)[0];
      if (!idle)
        throw new AppError(
          429,
          "too_many_sessions",
          `this token already has ${this.limits.perToken} MCP sessions busy; end one (DELETE /mcp) or wait`,
        );
      await this.end(idle);
    }
    // Another agent's sessions are not ours to end: at the pod's bound the pod's agents wait for theirs to end or go idle.
    const inPod = this.countInPod(owner.podId) + (this.openingInPod.get(owner.podId) ?? 0);
    if (inPod >= this.limits.perPod)
      throw new AppError(
        429,
        "too_many_sessions",
        `this pod's agents already have ${this.limits.perPod} MCP sessions; end some (DELETE /mcp) or wait`,
      );
    const pending = [...this.opening.values()].reduce((a, b) => a + b, 0);
    if (this.sessions.size + pending >= this.limits.total)
      throw new AppError(
        503,
        "too_many_sessions",
        "this server has all the MCP sessions it can hold; try again later",
      );
    bump(this.opening, owner.tokenId, 1);
    bump(this.openingInPod, owner.podId, 1);
    try {
      return await openMcpSession({
        owner,
        loopbackUrl: this.loopbackUrl,
        newId: randomUUID,
        onInitialized: (s) => void this.sessions.set(s.id, s),
        onEnded: (s) => this.forget(s),
        events: {
          bounds: { maxEvents: this.limits.eventsPerSession, maxBytes: this.limits.eventBytesPerSession },
          budgets: this.eventBudgets.forPod(owner.podId),
        },
      });
    } finally {
      bump(this.opening, owner.tokenId, -1);
      bump(this.openingInPod, owner.podId, -1);
      this.eventBudgets.forgetIfEmpty(owner.podId); // a session refused while opening leaves no budget behind
    }
  }

  async end(s: McpSession) {
    this.forget(s);
    s.lifetime.abort();
    await s.server.close().catch(() => {});
  }

  countInPod(podId: string) {
    return [...this.sessions.values()].filter((s) => s.owner.podId === podId).length;
  }

  get size() {
    return this.sessions.size;
  }

  /** Sessions with no call for idleMs (an open GET stream alone is not use), and those whose token was revoked, are ended. */
  async sweep(now = Date.now()) {
    for (const s of [...this.sessions.values()]) {
      const idle = s.inFlight === 0 && now - s.lastSeen > this.limits.idleMs;
      if (idle || !(await this.stillValid(s.owner.tokenId).catch(() => true))) await this.end(s);
    }
  }

  async close() {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.end(s)));
  }

  private forget(s: McpSession) {
    if (this.sessions.get(s.id) === s) this.sessions.delete(s.id);
    s.events.release();
    this.eventBudgets.forgetIfEmpty(s.owner.podId);
  }
}

function bump(counts: Map<string, number>, key: string, by: number) {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}

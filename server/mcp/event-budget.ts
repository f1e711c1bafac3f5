// Bytes of remote MCP messages kept for resumption, shared by several sessions' event stores:
// one budget per pod (its agents may hold up to MCP_LIMITS.perPod sessions) and one for the
// whole server. Past a budget, the oldest message among its stores goes first, whichever
// session it belongs to, so a pod's busy sessions cannot pin memory that the bound denies.

/** What a budget needs of a store: the age of its oldest message, and dropping it. */
export type BudgetMember = { oldestAge(): number | undefined; dropOldest(): void };

export class EventBudget {
  bytes = 0;
  private readonly members = new Set<BudgetMember>();

  constructor(readonly maxBytes: number) {}

  join(m: BudgetMember) {
    this.members.add(m);
  }

  leave(m: BudgetMember) {
    this.members.delete(m);
  }

  get empty() {
    return this.members.size === 0;
  }

  /** Oldest first across its stores until within bound (each drop lowers `bytes` through the store). */
  settle() {
    while (this.bytes > this.maxBytes) {
      let oldest: BudgetMember | undefined;
      let age = Infinity;
      for (const m of this.members) {
        const a = m.oldestAge();
        if (a !== undefined && a < age) [oldest, age] = [m, a];
      }
      if (!oldest) return;
      oldest.dropOldest();
    }
  }
}

/** The pods' budgets, each made on its first session and forgotten with its last; and the server's. */
export class EventBudgets {
  readonly total: EventBudget;
  private readonly pods = new Map<string, EventBudget>();

  constructor(
    private readonly perPodBytes: number,
    totalBytes: number,
  ) {
    this.total = new EventBudget(totalBytes);
  }

  forPod(podId: string): EventBudget[] {
    let pod = this.pods.get(podId);
    if (!pod) this.pods.set(podId, (pod = new EventBudget(this.perPodBytes)));
    return [pod, this.total];
  }

  /** Bytes kept for the pod's sessions now (0 for a pod with none). */
  podBytes(podId: string) {
    return this.pods.get(podId)?.bytes ?? 0;
  }

  forgetIfEmpty(podId: string) {
    if (this.pods.get(podId)?.empty) this.pods.delete(podId);
  }
}

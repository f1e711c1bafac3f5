// Builds tapes for the reducer tests: events are parsed by the real schemas
// (defaults applied) and numbered like the store numbers them.
import { expect } from "vitest";
import { AppError } from "../domain/errors";
import { ZEventInput } from "../domain/events/event-schemas";
import { applyEvent } from "../domain/state/apply-event";
import { emptyPodState, type AppliedEvent, type PodState } from "../domain/state/pod-state";

export const HASH = "b".repeat(64);

export class Tape {
  state: PodState = emptyPodState();
  /** When set, the receivedAt of the next events (deadlines and cadence count from it). */
  now: string | null = null;
  /** The events applied so far: the tape (for recomputing from it). */
  events: AppliedEvent[] = [];

  /** Applies one event; returns the new state (and keeps it). */
  add(type: string, actor: string, body: object = {}, extra: object = {}): PodState {
    const event = ZEventInput.parse({ type, actor, body, ...extra });
    const applied = {
      ...event,
      seq: this.state.seq + 1,
      receivedAt: this.now ?? `2026-11-22T00:00:${String(this.state.seq % 60).padStart(2, "0")}.000Z`,
    } as AppliedEvent;
    this.state = applyEvent(this.state, applied);
    this.events.push(applied);
    return this.state;
  }

  /** Expects the event to be refused by `code`, and the state to stay as it was. */
  refuses(code: string, type: string, actor: string, body: object = {}, extra: object = {}) {
    const before = this.state;
    let error: unknown;
    try {
      this.add(type, actor, body, extra);
    } catch (e) {
      error = e;
    }
    expect(error, `${type} should be refused with ${code}`).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe(code);
    expect([409, 422]).toContain((error as AppError).status);
    expect(this.state).toBe(before);
  }

  /** A pod with a human approver, a chair, an implementer and a reviewer, set up by admin automation ("admin" is no member). */
  static team(): Tape {
    const t = new Tape();
    for (const [memberId, kind] of [
      ["ana", "human"],
      ["chair-1", "agent"],
      ["impl", "agent"],
      ["rev", "agent"],
      ["orch", "agent"],
    ] as const) {
      t.add("member.joined", "admin", {
        memberId,
        kind,
        displayName: memberId,
        ...(kind === "human" ? { access: "approver" } : {}),
      });
    }
    t.add("member.joined", "admin", { memberId: "vic", kind: "human", displayName: "vic" }); // a viewer
    t.add("role.assigned", "admin", { memberId: "chair-1", role: "chair" });
    t.add("role.assigned", "admin", { memberId: "impl", role: "implementer" });
    t.add("role.assigned", "admin", { memberId: "rev", role: "reviewer" });
    t.add("role.assigned", "admin", { memberId: "orch", role: "orchestrator" });
    return t;
  }

  bundle(bundleId: string, exitCode = 0) {
    return this.add("evidence.bundle", "impl", {
      bundleId,
      commands: [{ command: "npm test", exit_code: exitCode }],
      artifacts: [{ path: "a.txt", sha256: HASH, size: 1 }],
      env: { commit: "c1" },
      manifestHash: HASH,
    });
  }
}

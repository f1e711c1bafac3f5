// The budget watcher, pure: what is reported crossed, with which id, and when a pod's
// wall-time budget falls due by the clock alone.
import { describe, expect, it } from "vitest";
import { Tape } from "../testing/reducer-tape";
import { timedWork } from "./timed-work";

const T0 = "2026-11-22T10:00:00.000Z";
const ms = (iso: string) => Date.parse(iso);

function pod(): Tape {
  const t = Tape.team();
  t.now = T0;
  t.add("pod.scope_agreed", "chair-1", { scope: "s", successCriteria: ["c"] });
  t.add("pod.started", "chair-1");
  return t;
}

describe("timedWork's budgets", () => {
  it("reports a crossed budget as podwatch with the numbers, the same id however often, and the tape takes it", () => {
    const t = pod();
    t.add("budget.set", "ana", {
      budgetId: "b-tok",
      agentId: "impl",
      metric: "tokens",
      limit: 1000,
      then: "hold_tools",
    });
    t.add("usage.reported", "impl", { model: "m", inputTokens: 600, outputTokens: 300 });
    expect(timedWork("p", t.state, ms(T0), 60_000)).toEqual({ due: [], nextAt: null });
    t.add("usage.reported", "impl", { model: "m", inputTokens: 100, outputTokens: 50 });
    const [a] = timedWork("p", t.state, ms(T0), 60_000).due;
    expect(a!.event).toMatchObject({
      type: "budget.exceeded",
      actor: "podwatch",
      body: {
        budget: "b-tok",
        limit: 1000,
        used: 1050,
        metric: "tokens",
        agentId: "impl",
        then: "hold_tools",
      },
    });
    expect(timedWork("p", t.state, ms(T0) + 9_000, 60_000).due[0]!.event.id).toBe(a!.event.id);
    expect(timedWork("q", t.state, ms(T0), 60_000).due[0]!.event.id).not.toBe(a!.event.id);
    t.add("budget.exceeded", "podwatch", a!.event.body, { id: a!.event.id });
    expect(timedWork("p", t.state, ms(T0), 60_000).due).toEqual([]); // once per round
    // Set again (raised, and crossed at once): a new round, a new id.
    t.add("budget.set", "ana", {
      budgetId: "b-tok",
      agentId: "impl",
      metric: "tokens",
      limit: 1001,
      then: "hold_tools",
    });
    const [b] = timedWork("p", t.state, ms(T0), 60_000).due;
    expect(b!.event.id).not.toBe(a!.event.id);
  });

  it("a pod-wide wall-time budget of an active pod is due when its active time reaches the limit; paused, it waits", () => {
    const t = pod();
    t.add("budget.set", "ana", { budgetId: "wall", metric: "wall_minutes", limit: 30, then: "pause_pod" });
    expect(timedWork("p", t.state, ms(T0) + 10 * 60_000, 60_000)).toEqual({
      due: [],
      nextAt: ms(T0) + 30 * 60_000,
    });
    const [due] = timedWork("p", t.state, ms(T0) + 30 * 60_000, 60_000).due;
    expect(due!.event.body).toMatchObject({
      budget: "wall",
      used: 30,
      limit: 30,
      metric: "wall_minutes",
      then: "pause_pod",
    });
    t.now = "2026-11-22T10:20:00.000Z";
    t.add("pod.paused", "chair-1");
    expect(timedWork("p", t.state, ms(T0) + 60 * 60_000, 60_000)).toEqual({ due: [], nextAt: null });
    // An agent's wall time grows only with its events: nothing to wake for.
    t.add("pod.resumed", "chair-1");
    t.add("budget.set", "ana", { budgetId: "impl-wall", agentId: "impl", metric: "wall_minutes", limit: 5 });
    expect(timedWork("p", t.state, ms("2026-11-22T10:20:00.000Z"), 60_000).nextAt).toBe(
      ms("2026-11-22T10:30:00.000Z"),
    );
  });
});

import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { cadenceAdherence, stalenessDue, watchedAgents } from "./cadence";

const at = (min: number) => new Date(Date.parse("2026-11-22T10:00:00.000Z") + min * 60_000).toISOString();

/** An active pod (cadence 10 minutes) whose implementer works on task a from minute 0. */
function working() {
  const t = Tape.team();
  t.add("pod.scope_agreed", "chair-1", { scope: "s", successCriteria: ["c"], cadenceMinutes: 10 });
  t.add("task.added", "impl", { taskId: "a", description: "a" });
  t.now = at(0);
  t.add("pod.started", "chair-1");
  t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
  return t;
}

describe("the cadence watchdog's state", () => {
  it("watches the active agent and implementers of work in progress, only in an active pod", () => {
    const t = working();
    expect([...watchedAgents(t.state)]).toEqual(["impl"]);
    expect(t.state.cadence["impl"]).toMatchObject({ watchedSince: at(0), lastCheckpointAt: null });
    t.now = at(1);
    t.add("handoff", "impl", { to: "rev", reason: "look" });
    expect([...watchedAgents(t.state)].sort()).toEqual(["impl", "rev"]);
    expect(t.state.cadence["rev"]!.watchedSince).toBe(at(1));
    t.add("pod.paused", "chair-1");
    expect(watchedAgents(t.state).size).toBe(0);
    expect(t.state.cadence["impl"]!.watchedSince).toBeNull();
    t.now = at(5);
    t.add("pod.resumed", "chair-1");
    expect(t.state.cadence["impl"]!.watchedSince).toBe(at(5)); // the clock starts again when watched again
    t.add("handoff", "impl", { to: "ana", reason: "a person" }); // people are not watched
    expect([...watchedAgents(t.state)]).toEqual(["impl"]);
  });

  it("counts checkpoints on cadence or late, from the later of the last checkpoint and becoming watched", () => {
    const t = working();
    t.now = at(9);
    t.add("checkpoint", "impl", { completed: ["x"], next: [], blocked: [] });
    t.now = at(25); // 16 minutes after the last one
    t.add("checkpoint", "impl", { completed: ["y"], next: [], blocked: [] });
    expect(t.state.cadence["impl"]).toMatchObject({ onTime: 1, late: 1, lastCheckpointAt: at(25) });
    expect(cadenceAdherence(t.state)).toMatchObject({ onTime: 1, late: 1, percent: 50, staleNow: [] });
    expect(stalenessDue(t.state)).toEqual([{ agentId: "impl", since: at(25), dueAt: Date.parse(at(35)) }]);
    expect(stalenessDue(t.state, 1000)[0]!.dueAt).toBe(Date.parse(at(25)) + 10_000); // the test-only minute
  });

  it("agent.stale opens one episode (an inbox item) that the agent's next checkpoint clears", () => {
    const t = working();
    t.now = at(11);
    const body = { agentId: "impl", since: at(0), cadenceMinutes: 10 };
    t.refuses("system_only", "agent.stale", "ana", body);
    t.refuses("stale_episode_mismatch", "agent.stale", "podwatch", { ...body, since: at(1) });
    t.refuses("not_watched", "agent.stale", "podwatch", { ...body, agentId: "rev" });
    const s = t.add("agent.stale", "podwatch", body);
    expect(s.inbox["stale:impl"]).toMatchObject({
      kind: "stale",
      subject: { kind: "agent", id: "impl" },
      title: "impl has not checkpointed for 10 minutes",
    });
    expect(s.cadence["impl"]).toMatchObject({ staleEpisodes: 1, stale: { since: at(0) } });
    expect(cadenceAdherence(s)).toMatchObject({ staleNow: ["impl"], percent: 0 });
    t.refuses("already_stale", "agent.stale", "podwatch", body);
    expect(stalenessDue(s)).toEqual([]);
    t.now = at(14);
    const after = t.add("checkpoint", "impl", { completed: [], next: ["z"], blocked: [] });
    expect(after.inbox).toEqual({});
    expect(after.cadence["impl"]).toMatchObject({ stale: null, late: 1, staleEpisodes: 1 });
    t.refuses("stale_episode_mismatch", "agent.stale", "podwatch", body); // that episode is over
  });

  it("an agent no longer watched leaves its staleness", () => {
    const t = working();
    t.now = at(11);
    t.add("agent.stale", "podwatch", { agentId: "impl", since: at(0), cadenceMinutes: 10 });
    expect(
      t.add("task.updated", "impl", { taskId: "a", status: "blocked", blockedReason: "waiting" }).inbox,
    ).toEqual({});
    expect(t.state.cadence["impl"]).toMatchObject({ watchedSince: null, stale: null, staleEpisodes: 1 });
  });
});

import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { ZEventInput } from "../events/event-schemas";
import { deadlineOutcome, pendingDeadlines } from "./deadlines";

const T0 = "2026-11-22T10:00:00.000Z";
const LATER = "2026-11-22T10:31:00.000Z";
const esc = (deadline: object, options?: string[]) => ({
  escalationId: "e1",
  kind: "intent",
  question: "Ship?",
  ...(options ? { options } : {}),
  deadline,
});
const passed = (itemId: string, kind: string, id: string, outcome: string, answer?: string) => ({
  itemId,
  subject: { kind, id },
  outcome,
  ...(answer ? { answer } : {}),
});

/** `by`: who asks for the review — approve as the default needs someone who may decide (the chair). */
function reviewed(deadline?: object, by = "impl") {
  const t = Tape.team();
  t.add("task.added", "impl", { taskId: "a", description: "a" });
  t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
  t.now = T0;
  t.add("task.review_requested", by, { taskId: "a", ...(deadline ? { deadline } : {}) });
  t.now = null;
  t.add("review", "rev", { taskId: "a", verdict: "approve" });
  return t;
}

function delivered(deadline: object, by = "impl") {
  const t = Tape.team();
  t.bundle("ev1");
  t.add("job.posted", "chair-1", {
    jobId: "j1",
    scope: "Fix",
    acceptanceTests: ["works"],
    settlement: { amount: 5, currency: "EUR", terms: "t" },
  });
  t.add("job.funded", "chair-1", { jobId: "j1" });
  t.now = T0;
  t.add("job.delivered", by, { jobId: "j1", evidenceIds: ["ev1"], deadline });
  return t;
}

describe("deadline bodies", () => {
  const parse = (type: string, body: object) => ZEventInput.safeParse({ type, actor: "impl", body });
  it("take exactly one of at or inMinutes, and an answer exactly when then is answer", () => {
    expect(parse("escalation", esc({ inMinutes: 30, then: "remind" })).success).toBe(true);
    expect(parse("escalation", esc({ then: "remind" })).success).toBe(false);
    expect(parse("escalation", esc({ inMinutes: 30, at: T0, then: "remind" })).success).toBe(false);
    expect(parse("escalation", esc({ inMinutes: 0, then: "remind" })).success).toBe(false);
    expect(parse("escalation", esc({ inMinutes: 43201, then: "remind" })).success).toBe(false);
    expect(parse("escalation", esc({ inMinutes: 5, then: "answer" })).success).toBe(false);
    expect(parse("escalation", esc({ inMinutes: 5, then: "remind", answer: "x" })).success).toBe(false);
  });
  it("an escalation's default answer is one of its options; it cannot be rejected", () => {
    expect(
      parse("escalation", esc({ inMinutes: 5, then: "answer", answer: "Yes" }, ["Yes", "No"])).success,
    ).toBe(true);
    const bad = parse("escalation", esc({ inMinutes: 5, then: "answer", answer: "Maybe" }, ["Yes", "No"]));
    expect(bad.error?.issues[0]?.path).toEqual(["body", "deadline", "answer"]);
    expect(parse("escalation", esc({ inMinutes: 5, then: "answer", answer: "Anything" })).success).toBe(true);
    expect(parse("escalation", esc({ inMinutes: 5, then: "reject" })).success).toBe(false);
  });
  it("a task answers approve or reject, a job accept or reject", () => {
    expect(
      parse("task.review_requested", {
        taskId: "a",
        deadline: { inMinutes: 5, then: "answer", answer: "approve" },
      }).success,
    ).toBe(true);
    expect(
      parse("task.review_requested", {
        taskId: "a",
        deadline: { inMinutes: 5, then: "answer", answer: "accept" },
      }).success,
    ).toBe(false);
    expect(
      parse("job.delivered", { jobId: "j", deadline: { inMinutes: 5, then: "answer", answer: "accept" } })
        .success,
    ).toBe(true);
    expect(
      parse("job.delivered", { jobId: "j", deadline: { inMinutes: 5, then: "answer", answer: "approve" } })
        .success,
    ).toBe(false);
  });
});

describe("deadline.passed", () => {
  it("makes the deadline absolute on the item: inMinutes from receivedAt, at as given", () => {
    const t = Tape.team();
    t.now = T0;
    const s = t.add(
      "escalation",
      "impl",
      esc({ inMinutes: 30, then: "answer", answer: "Yes" }, ["Yes", "No"]),
    );
    expect(s.inbox["escalation:e1"]!.due).toEqual({
      at: "2026-11-22T10:30:00.000Z",
      then: "answer",
      answer: "Yes",
    });
    const s2 = t.add("escalation", "impl", {
      ...esc({ at: "2026-11-23T12:00:00+02:00", then: "remind" }),
      escalationId: "e2",
    });
    expect(s2.inbox["escalation:e2"]!.due).toEqual({ at: "2026-11-23T10:00:00.000Z", then: "remind" });
    expect(pendingDeadlines(s2).map((p) => p.item.id)).toEqual(["escalation:e1", "escalation:e2"]);
  });

  it("answers an escalation with the default answer, by podwatch, once the deadline is reached", () => {
    const t = Tape.team();
    t.now = T0;
    t.add("escalation", "impl", esc({ inMinutes: 30, then: "answer", answer: "Yes" }, ["Yes", "No"]));
    const body = passed("escalation:e1", "escalation", "e1", "answered", "Yes");
    t.refuses("system_only", "deadline.passed", "ana", body);
    t.refuses("deadline_not_reached", "deadline.passed", "podwatch", body);
    t.now = LATER;
    t.refuses("outcome_mismatch", "deadline.passed", "podwatch", { ...body, answer: "No" });
    t.refuses("subject_mismatch", "deadline.passed", "podwatch", {
      ...body,
      subject: { kind: "escalation", id: "e9" },
    });
    const s = t.add("deadline.passed", "podwatch", body);
    expect(s.escalations["e1"]!.answer).toMatchObject({ answer: "Yes", by: "podwatch", at: LATER });
    expect(s.inbox).toEqual({});
    t.refuses("not_open", "deadline.passed", "podwatch", body);
  });

  it("refuses an item without a deadline, and one a person answered first", () => {
    const t = Tape.team();
    t.now = T0;
    t.add("escalation", "impl", { escalationId: "plain", kind: "intent", question: "?" });
    t.add("escalation", "impl", esc({ inMinutes: 1, then: "answer", answer: "Yes" }, ["Yes", "No"]));
    t.now = LATER;
    t.refuses(
      "no_deadline",
      "deadline.passed",
      "podwatch",
      passed("escalation:plain", "escalation", "plain", "reminded"),
    );
    t.add("escalation.answered", "ana", { escalationId: "e1", answer: "No" });
    t.refuses(
      "not_open",
      "deadline.passed",
      "podwatch",
      passed("escalation:e1", "escalation", "e1", "answered", "Yes"),
    );
  });

  it("a reminder keeps the item, marked passed, and passes once", () => {
    const t = Tape.team();
    t.now = T0;
    t.add("escalation", "impl", esc({ inMinutes: 5, then: "remind" }));
    t.now = LATER;
    const body = passed("escalation:e1", "escalation", "e1", "reminded");
    const s = t.add("deadline.passed", "podwatch", body);
    expect(s.inbox["escalation:e1"]!.due).toMatchObject({ passed: true });
    expect(deadlineOutcome(s.inbox["escalation:e1"]!)).toBeNull();
    expect(pendingDeadlines(s)).toEqual([]);
    t.refuses("no_deadline", "deadline.passed", "podwatch", body);
    expect(t.add("escalation.answered", "ana", { escalationId: "e1", answer: "ok" }).inbox).toEqual({});
  });

  it("a review request's deadline moves onto the decision item; passing it decides the task by podwatch", () => {
    const t = reviewed({ inMinutes: 30, then: "answer", answer: "approve" }, "chair-1");
    expect(t.state.inbox["decision:task:a"]!.due).toEqual({
      at: "2026-11-22T10:30:00.000Z",
      then: "answer",
      answer: "approve",
    });
    t.now = LATER;
    t.refuses(
      "outcome_mismatch",
      "deadline.passed",
      "podwatch",
      passed("decision:task:a", "task", "a", "rejected"),
    );
    const s = t.add("deadline.passed", "podwatch", passed("decision:task:a", "task", "a", "approved"));
    expect(s.tasks["a"]!.status).toBe("done");
    expect(s.decisions.at(-1)).toMatchObject({
      verdict: "approve",
      by: "podwatch",
      tieBreaker: "timebox",
      subject: { kind: "task", id: "a" },
    });
    expect(s.inbox).toEqual({});
  });

  it("a default the rules refuse now (a failing gate) can only be a reminder", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.bundle("bad", 1);
    t.now = T0;
    t.add("task.review_requested", "chair-1", {
      taskId: "a",
      evidenceIds: ["bad"],
      deadline: { inMinutes: 5, then: "answer", answer: "approve" },
    });
    t.add("review", "rev", { taskId: "a", verdict: "approve" });
    t.now = LATER;
    t.refuses(
      "failing_gate",
      "deadline.passed",
      "podwatch",
      passed("decision:task:a", "task", "a", "approved"),
    );
    expect(
      t.add("deadline.passed", "podwatch", passed("decision:task:a", "task", "a", "reminded")).inbox[
        "decision:task:a"
      ]!.due!.passed,
    ).toBe(true);
  });

  it("then: reject rejects the task; a new review request without a deadline drops the old one", () => {
    const t = reviewed({ inMinutes: 30, then: "reject" });
    t.now = LATER;
    expect(
      t.add("deadline.passed", "podwatch", passed("decision:task:a", "task", "a", "rejected")).tasks["a"]!
        .status,
    ).toBe("rejected");
    const again = reviewed({ inMinutes: 30, then: "reject" });
    again.add("review", "rev", { taskId: "a", verdict: "changes_requested" });
    again.add("task.review_requested", "impl", { taskId: "a" });
    expect(again.state.tasks["a"]!.due).toBeUndefined();
    expect(
      again.add("review", "rev", { taskId: "a", verdict: "approve" }).inbox["decision:task:a"]!.due,
    ).toBeUndefined();
  });

  it("accepting a delivery at its deadline settles the escrow like a person's accept; rejecting refunds it", () => {
    const t = delivered({ inMinutes: 10, then: "answer", answer: "accept" }, "chair-1");
    t.now = LATER;
    const s = t.add("deadline.passed", "podwatch", passed("job:j1", "job", "j1", "accepted"));
    expect(s.jobs["j1"]).toMatchObject({ status: "settled", escrow: "released" });
    expect(s.decisions.at(-1)).toMatchObject({ verdict: "accept", by: "podwatch" });
    const r = delivered({ inMinutes: 10, then: "reject" });
    r.now = LATER;
    expect(
      r.add("deadline.passed", "podwatch", passed("job:j1", "job", "j1", "rejected")).jobs["j1"],
    ).toMatchObject({ status: "settled", escrow: "refunded" });
  });
});

describe("who sets a default, and how soon", () => {
  const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
  it("a deadline is at least a minute after the event was received and at most 30 days", () => {
    const t = Tape.team();
    t.now = T0;
    const ask = (id: string, deadline: object) => ({
      ...esc(deadline, ["Yes", "No"]),
      escalationId: id,
      question: "Delete prod?",
    });
    // An asker's past `at` would have been answered by podwatch at once.
    t.refuses(
      "deadline_too_soon",
      "escalation",
      "impl",
      ask("past", { at: "2000-01-01T00:00:00Z", then: "answer", answer: "Yes" }),
    );
    t.refuses(
      "deadline_too_soon",
      "escalation",
      "impl",
      ask("soon", { at: at(59_999), then: "answer", answer: "Yes" }),
    );
    t.refuses(
      "deadline_too_far",
      "escalation",
      "impl",
      ask("far", { at: at(30 * 86_400_000 + 1), then: "remind" }),
    );
    expect(
      t.add("escalation", "impl", ask("min", { at: at(60_000), then: "answer", answer: "Yes" })).inbox[
        "escalation:min"
      ]!.due!.at,
    ).toBe(at(60_000));
    expect(
      t.add("escalation", "impl", ask("max", { at: at(30 * 86_400_000), then: "remind" })).inbox[
        "escalation:max"
      ]!.due!.at,
    ).toBe(at(30 * 86_400_000));
    expect(
      t.add("escalation", "impl", ask("rel", { inMinutes: 1, then: "remind" })).inbox["escalation:rel"]!.due!
        .at,
    ).toBe(at(60_000));
  });

  it("an implementer may not make its own review request approve itself by default; remind or reject it may", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = T0;
    t.refuses("deadline_too_soon", "task.review_requested", "impl", {
      taskId: "a",
      deadline: { at: "2000-01-01T00:00:00Z", then: "answer", answer: "approve" },
    });
    t.refuses("default_needs_decider", "task.review_requested", "impl", {
      taskId: "a",
      deadline: { inMinutes: 30, then: "answer", answer: "approve" },
    });
    expect(
      t.add("task.review_requested", "impl", {
        taskId: "a",
        deadline: { inMinutes: 30, then: "answer", answer: "reject" },
      }).tasks["a"]!.due,
    ).toMatchObject({ then: "answer", answer: "reject" });
    const r = Tape.team();
    r.add("task.added", "impl", { taskId: "b", description: "b" });
    r.add("task.updated", "impl", { taskId: "b", status: "in_progress" });
    expect(
      r.add("task.review_requested", "impl", { taskId: "b", deadline: { inMinutes: 30, then: "remind" } })
        .tasks["b"]!.due,
    ).toMatchObject({ then: "remind" });
  });

  it("the chair (who may decide the task) may make approve the default", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "a", description: "a" });
    t.add("task.updated", "impl", { taskId: "a", status: "in_progress" });
    t.now = T0;
    expect(
      t.add("task.review_requested", "chair-1", {
        taskId: "a",
        deadline: { inMinutes: 30, then: "answer", answer: "approve" },
      }).tasks["a"]!.due,
    ).toMatchObject({ answer: "approve" });
  });

  it("a delivering agent may not accept its own delivery by default; reject or remind it may, the chair may accept", () => {
    const attempt = (actor: string, deadline: object) => {
      const t = Tape.team();
      t.bundle("ev1");
      t.add("job.posted", "chair-1", {
        jobId: "j1",
        scope: "Fix",
        acceptanceTests: ["works"],
        settlement: { amount: 5, currency: "EUR", terms: "t" },
      });
      t.add("job.funded", "chair-1", { jobId: "j1" });
      t.now = T0;
      return { t, body: { jobId: "j1", evidenceIds: ["ev1"], deadline }, actor };
    };
    const accept = attempt("impl", { at: "2000-01-01T00:00:00Z", then: "answer", answer: "accept" });
    accept.t.refuses("deadline_too_soon", "job.delivered", "impl", accept.body);
    const later = attempt("impl", { inMinutes: 10, then: "answer", answer: "accept" });
    later.t.refuses("default_needs_decider", "job.delivered", "impl", later.body);
    for (const deadline of [
      { inMinutes: 10, then: "reject" },
      { inMinutes: 10, then: "answer", answer: "reject" },
      { inMinutes: 10, then: "remind" },
    ]) {
      const ok = attempt("impl", deadline);
      expect(ok.t.add("job.delivered", "impl", ok.body).inbox["job:j1"]!.due).toBeDefined();
    }
    const chair = attempt("chair-1", { inMinutes: 10, then: "answer", answer: "accept" });
    expect(chair.t.add("job.delivered", "chair-1", chair.body).inbox["job:j1"]!.due).toMatchObject({
      answer: "accept",
    });
  });
});

describe("the system actor", () => {
  it("a member named podwatch on a tape an older version accepted still replays (the doors refuse new ones: policy.ts)", () => {
    expect(
      Tape.team().add("member.joined", "admin", {
        memberId: "podwatch",
        kind: "agent",
        displayName: "Old bot",
      }).members["podwatch"],
    ).toMatchObject({ kind: "agent" });
  });
});

describe("notices", () => {
  const notice = {
    noticeId: "n1",
    title: "Endpoint disabled",
    text: "It failed for a day",
    audience: "admins",
  };
  it("are posted by podwatch for the admins, and dismissed by an admin", () => {
    const t = Tape.team();
    t.add("member.joined", "admin", { memberId: "adm", kind: "human", displayName: "adm", access: "admin" });
    t.refuses("system_only", "notice.posted", "adm", notice);
    const s = t.add("notice.posted", "podwatch", notice);
    expect(s.inbox["notice:n1"]).toMatchObject({
      kind: "notice",
      audience: "admins",
      title: "Endpoint disabled",
      text: "It failed for a day",
    });
    t.refuses("notice_open", "notice.posted", "podwatch", notice);
    t.refuses("admin_only", "notice.dismissed", "ana", { noticeId: "n1" }); // an approver, not an admin
    t.refuses("admin_only", "notice.dismissed", "impl", { noticeId: "n1" });
    t.refuses("unknown_notice", "notice.dismissed", "adm", { noticeId: "n2" });
    expect(t.add("notice.dismissed", "adm", { noticeId: "n1" }).inbox).toEqual({});
  });
});

import { describe, expect, it } from "vitest";
import {
  assigneesOf,
  groupTasks,
  groupingFields,
  laneOf,
  matcher,
  openQuestions,
  UNASSIGNED,
  type BoardTask,
} from "./board-model";
import { readBoardQuery, writeBoardQuery } from "./board-query";

const task = (taskId: string, over: Partial<BoardTask> = {}): BoardTask => ({
  taskId,
  description: `Task ${taskId}`,
  status: "pending",
  dependsOn: [],
  metadata: {},
  implementer: null,
  implementers: [],
  reviewer: null,
  blockedReason: null,
  evidenceIds: [],
  workcellIds: [],
  review: null,
  reviewRounds: 0,
  createdSeq: 1,
  updatedSeq: 1,
  failingGates: [],
  ...over,
});
const approved = { seq: 3, at: "", verdict: "approve" as const, by: "rev", comments: "" };
const none = new Set<string>();
const laned = (tasks: BoardTask[], questions = none) =>
  tasks.map((t) => ({ task: t, lane: laneOf(t, questions) }));

describe("the board's lanes", () => {
  it("puts each state in its lane; an approved review or an open question waits for a decision", () => {
    expect(laneOf(task("a"), none)).toBe("todo");
    expect(laneOf(task("a", { status: "blocked" }), none)).toBe("blocked");
    expect(laneOf(task("a", { status: "changes_requested" }), none)).toBe("progress");
    expect(laneOf(task("a", { status: "in_review" }), none)).toBe("review");
    expect(laneOf(task("a", { status: "in_review", review: approved }), none)).toBe("decision");
    expect(laneOf(task("a", { status: "in_progress" }), new Set(["a"]))).toBe("decision");
    expect(laneOf(task("a", { status: "blocked" }), new Set(["a"]))).toBe("blocked");
    expect(laneOf(task("a", { status: "cancelled" }), none)).toBe("closed");
    expect(laneOf(task("a", { status: "done" }), new Set(["a"]))).toBe("done");
  });

  it("counts only unanswered escalations about a task as open questions", () => {
    const q = (taskId: string | null, answered: boolean) => ({
      seq: 1,
      at: "",
      escalationId: `e-${taskId}-${answered}`,
      kind: "intent" as const,
      question: "?",
      options: [],
      taskId,
      evidenceIds: [],
      askedBy: "impl",
      answer: answered ? { seq: 2, at: "", answer: "yes", by: "ana" } : null,
    });
    expect([...openQuestions({ escalations: [q("a", false), q("b", true), q(null, false)] })]).toEqual(["a"]);
  });
});

describe("search and filters", () => {
  const names = new Map([["impl-1", "Ada"]]);
  const tasks = [
    task("t-0001", { description: "Move billing", implementer: "impl-1", status: "in_progress" }),
    task("t-0002", { description: "Move search", reviewer: "rev" }),
    task("t-0003", { description: "Fix billing export", status: "blocked" }),
  ];
  const find = (q: string, lane = "", assignee = "") => {
    const keep = matcher({ q, lane: lane as "", assignee }, names);
    return laned(tasks)
      .filter(({ task, lane }) => keep(task, lane))
      .map(({ task }) => task.taskId);
  };
  it("finds by id, every word of the title, the assignee's id or name, in any case", () => {
    expect(find("T-0002")).toEqual(["t-0002"]);
    expect(find("billing fix")).toEqual(["t-0003"]);
    expect(find("  billing  ")).toEqual(["t-0001", "t-0003"]);
    expect(find("ada")).toEqual(["t-0001"]);
    expect(find("rev")).toEqual(["t-0002"]);
    expect(find("nothing like it")).toEqual([]);
  });
  it("filters by lane and by assignee (implementer or reviewer, or nobody)", () => {
    expect(find("", "blocked")).toEqual(["t-0003"]);
    expect(find("billing", "progress")).toEqual(["t-0001"]);
    expect(find("", "", "rev")).toEqual(["t-0002"]);
    expect(find("", "", UNASSIGNED)).toEqual(["t-0003"]);
    expect(assigneesOf(tasks)).toEqual(["impl-1", "rev"]);
  });
});

describe("grouping", () => {
  const names = new Map<string, string>();
  const tasks = [
    task("a", { metadata: { milestone: "M2", link: "x" } }),
    task("b", { status: "blocked", metadata: { milestone: "M10" } }),
    task("c", { status: "done", implementer: "impl", metadata: { milestone: "M10" } }),
    task("d", { status: "done", metadata: {} }),
    task("e", { status: "in_review", review: approved, implementer: "impl", metadata: { milestone: "M1" } }),
  ];
  const titles = (by: Parameters<typeof groupTasks>[1]) =>
    groupTasks(laned(tasks), by, names).map((g) => [g.title, g.tasks.map((t) => t.taskId).join("")]);

  it("by state: the pinned lanes first, then every column, finished work newest first", () => {
    expect(titles({ by: "state" })).toEqual([
      ["Blocked", "b"],
      ["Waiting for a decision", "e"],
      ["To do", "a"],
      ["In progress", ""],
      ["In review", ""],
      ["Done", "dc"],
      ["Closed", ""],
    ]);
  });
  it("by a field or by assignee: the pinned lanes, then each value's group in name order, the unset last", () => {
    expect(titles({ by: "field", field: "milestone" })).toEqual([
      ["Blocked", "b"],
      ["Waiting for a decision", "e"],
      ["M2", "a"],
      ["M10", "c"],
      ["No milestone", "d"],
    ]);
    expect(titles({ by: "assignee" })).toEqual([
      ["Blocked", "b"],
      ["Waiting for a decision", "e"],
      ["impl", "c"],
      ["Unassigned", "ad"],
    ]);
  });
  it("leaves out a pinned lane with nothing in it", () => {
    expect(groupTasks(laned([task("a")]), { by: "state" }, names).map((g) => g.key)).toEqual([
      "todo",
      "progress",
      "review",
      "done",
      "closed",
    ]);
  });
  it("offers the metadata fields that name a few groups, not one per task, not nested values", () => {
    const plan = Array.from({ length: 100 }, (_, i) =>
      task(`t${i}`, {
        metadata: {
          milestone: `M${i % 5}`,
          link: `https://x/${i}`,
          labels: ["a"],
          same: "x",
          rare: i === 0 ? "r" : undefined,
        },
      }),
    );
    expect(groupingFields(plan)).toEqual(["milestone"]);
  });
});

describe("the board's address", () => {
  it("reads back what it wrote, and keeps the tab and a linked task", () => {
    const query = {
      q: "billing fix",
      lane: "blocked" as const,
      assignee: "impl-1",
      grouping: { by: "field" as const, field: "milestone" },
      collapsed: ["done", "g:M1"],
    };
    const search = writeBoardQuery("tab=board&task=t-1&q=old", query);
    const params = new URLSearchParams(search);
    expect(params.get("tab")).toBe("board");
    expect(params.get("task")).toBe("t-1");
    expect(readBoardQuery(params)).toEqual(query);
    expect(writeBoardQuery("tab=board&q=x&group=assignee", readBoardQuery(new URLSearchParams("")))).toBe(
      "tab=board",
    );
  });
  it("reads a hostile address as the plain board: unknown states and groupings dropped, text bounded", () => {
    const q = readBoardQuery(new URLSearchParams(`state=constructor&group=field:&q=${"x".repeat(5000)}`));
    expect(q.lane).toBe("");
    expect(q.grouping).toEqual({ by: "state" });
    expect(q.q).toHaveLength(200);
  });
});

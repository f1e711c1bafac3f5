import { describe, expect, it } from "vitest";
import { parseStopReport } from "./stop-report";
import { readHookFixture } from "./fixtures";

describe("parseStopReport", () => {
  it("reads markdown headings with bulleted items (the fixture)", () => {
    const msg = readHookFixture("stop-checkpoint").last_assistant_message as string;
    expect(parseStopReport(msg)).toEqual({
      completed: [
        "GET /orders takes page and pageSize (default 20, max 100)",
        "listOrders uses take/skip and returns the total",
        "4 new tests in src/routes/orders.test.ts",
      ],
      next: ["Document the new query parameters in docs/api.md"],
      blocked: ["Pushing the branch needs approval"],
    });
  });

  it("reads bold labels with colons, numbered items and items on the label's line", () => {
    const msg =
      "Done for now.\n\n**Completed:**\n1. Wrote the parser\n2) Added tests\n\n**Next:** wire it into the route\n**Blocked:** none";
    expect(parseStopReport(msg)).toEqual({
      completed: ["Wrote the parser", "Added tests"],
      next: ["wire it into the route"],
      blocked: [],
    });
  });

  it("reads plain 'Label:' lines and synonyms (Next steps, Blockers)", () => {
    const msg =
      "Completed: the migration\nNext steps:\n* backfill\n* drop the old column\nBlockers:\n- waiting on DBA access";
    expect(parseStopReport(msg)).toEqual({
      completed: ["the migration"],
      next: ["backfill", "drop the old column"],
      blocked: ["waiting on DBA access"],
    });
  });

  it("a label word inside prose is not a heading", () => {
    expect(
      parseStopReport("Next I will look at the tests. Completed the refactor though. Blocked by nothing."),
    ).toBeNull();
  });

  it("fewer than two sections, or no items, is not a checkpoint", () => {
    expect(parseStopReport("Next steps:\n1. run the tests\n2. push")).toBeNull();
    expect(parseStopReport("## Completed\n\n## Next\n")).toBeNull();
    expect(parseStopReport(readHookFixture("stop-note").last_assistant_message as string)).toBeNull();
  });

  it("another heading ends a section; items are bounded", () => {
    const msg = `## Completed\n- a\n## Notes\n- not an item\n## Next\n${Array.from({ length: 150 }, (_, i) => `- n${i}`).join("\n")}\n- ${"x".repeat(5000)}`;
    const r = parseStopReport(msg)!;
    expect(r.completed).toEqual(["a"]);
    expect(r.next).toHaveLength(100);
    expect(r.next[0]).toBe("n0");
  });

  it("cuts a long item to the summary bound", () => {
    const r = parseStopReport(`Completed:\n- ${"y".repeat(5000)}\nNext:\n- z`)!;
    expect(r.completed[0]!.length).toBe(2000);
    expect(r.completed[0]!.endsWith("…")).toBe(true);
  });
});

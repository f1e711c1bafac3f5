import { describe, expect, it } from "vitest";
import { boundedText, fitItems, MAX_ANSWER_BYTES, planPage } from "./bounded-answers";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

describe("bounded MCP answers", () => {
  it("fits whole items in the room, and always the first", () => {
    expect(fitItems([{ a: 1 }, { a: 2 }, { a: 3 }], 16)).toEqual(['{"a":1}', '{"a":2}']);
    expect(fitItems(["x".repeat(100)], 10)).toHaveLength(1);
    expect(fitItems([], 10)).toEqual([]);
  });

  it("answers a small plan whole, as plan.json, and a large one in pages that cover it once", () => {
    expect(JSON.parse(planPage({ tasks: [{ task_id: "a" }] }, 0))).toEqual({ tasks: [{ task_id: "a" }] });
    const tasks = Array.from({ length: 100 }, (_, i) => ({ task_id: `t${i}`, pad: "ü".repeat(4000) }));
    const seen: string[] = [];
    for (let from = 0, more = true; more;) {
      const text = planPage({ tasks }, from);
      expect(bytes(text)).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
      const p = JSON.parse(text);
      seen.push(...p.tasks.map((t: { task_id: string }) => t.task_id));
      more = p.more;
      from = p.next_from;
    }
    expect(seen).toEqual(tasks.map((t) => t.task_id));
  });

  it("cuts any other answer past the bound and says so, on a character boundary", () => {
    expect(boundedText("short")).toBe("short");
    const cut = boundedText("é".repeat(MAX_ANSWER_BYTES));
    expect(bytes(cut)).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
    expect(cut).toMatch(/é\n… \(cut at \d+ bytes\)$/);
  });
});

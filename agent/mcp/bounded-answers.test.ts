import { describe, expect, it } from "vitest";
import type { TapeEvent } from "../../server/wire/events";
import { boundedText, fitItems, MAX_ANSWER_BYTES, planPage, readTapePage } from "./bounded-answers";

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** A tape of `count` events held in memory, read as GET /events reads it; and the reads it was asked. */
function tape(count: number, pad = 0) {
  const events = Array.from(
    { length: count },
    (_, i) =>
      ({ seq: i + 1, podId: "p", type: "note", body: { pad: "x".repeat(pad) } }) as unknown as TapeEvent,
  );
  const reads: { after: number; limit?: number; waitSeconds?: number }[] = [];
  const client = {
    readEvents: async (after = 0, o: { limit?: number; waitSeconds?: number } = {}) => {
      reads.push({ after, limit: o.limit, waitSeconds: o.waitSeconds });
      const page = events.filter((e) => e.seq > after).slice(0, o.limit ?? 100);
      return { events: page, nextAfter: page.at(-1)?.seq ?? after };
    },
  };
  return { client, reads };
}
async function readTape(count: number, a: { after?: number; limit: number; pad?: number }) {
  const { client, reads } = tape(count, a.pad);
  const text = await readTapePage(
    client,
    { after: a.after ?? 0, limit: a.limit, waitSeconds: 5 },
    new AbortController().signal,
  );
  const p = JSON.parse(text) as { events: TapeEvent[]; more: boolean; nextAfter: number };
  return { seqs: p.events.map((e) => e.seq), more: p.more, nextAfter: p.nextAfter, reads };
}

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

  it("read_tape says there are more events whenever the tape goes on after the page, however its fetches were capped", async () => {
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    // The limit reached exactly at the end of a fetch capped by the fetch size, or by the first fetch's few.
    for (const limit of [4, 20, 36]) {
      const page = await readTape(100, { limit });
      expect([page.seqs, page.more, page.nextAfter], `limit ${limit}`).toEqual([
        range(1, limit),
        true,
        limit,
      ]);
      // Only the first read waits for events to come.
      expect(page.reads.slice(1).every((r) => !r.waitSeconds)).toBe(true);
    }
    // ...and by the room an answer has: events of 60 KB, four of which fill it.
    const large = await readTape(10, { limit: 4, pad: 60_000 });
    expect([large.seqs, large.more]).toEqual([range(1, 4), true]);
    // A tape that ends exactly at the limit, or before it, has no more.
    for (const limit of [4, 20, 36])
      expect((await readTape(limit, { limit })).more, `limit ${limit}`).toBe(false);
    expect(await readTape(30, { after: 10, limit: 50 })).toMatchObject({ seqs: range(11, 30), more: false });
    expect(await readTape(30, { after: 30, limit: 5 })).toMatchObject({
      seqs: [],
      more: false,
      nextAfter: 30,
    });
  });
});

import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { assistantLines, userLine } from "./testing/transcript";
import { readTranscriptUsage, type TranscriptCursor } from "./transcript-usage";

const S = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
const SONNET = "claude-sonnet-4-5-20250929";
const u = (i: number, o: number, r = 0, w = 0) => ({
  input_tokens: i,
  output_tokens: o,
  cache_read_input_tokens: r,
  cache_creation_input_tokens: w,
});
const file = () => join(mkdtempSync(join(tmpdir(), "pw-transcript-")), "t.jsonl");
const start: TranscriptCursor = { offset: 0, seen: [] };

describe("usage from a Claude Code transcript", () => {
  it("counts a message once although each of its content blocks repeats the usage, summed per model", () => {
    const f = file();
    const lines = [
      userLine(S, "Add pagination"),
      ...assistantLines(S, { model: SONNET, id: "msg_01", usage: u(10, 100, 1000, 50), blocks: 3 }),
      ...assistantLines(S, { model: SONNET, id: "msg_02", usage: u(5, 20, 2000, 0) }),
      ...assistantLines(S, { model: "claude-haiku-4-5-20251001", id: "msg_03", usage: u(7, 8) }),
    ];
    writeFileSync(f, `${lines.join("\n")}\n`);
    const r = readTranscriptUsage(f, start);
    expect(Object.fromEntries(r.perModel)).toEqual({
      [SONNET]: { inputTokens: 15, outputTokens: 120, cacheReadTokens: 3000, cacheWriteTokens: 50 },
      "claude-haiku-4-5-20251001": {
        inputTokens: 7,
        outputTokens: 8,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
    });
    expect([r.from, r.to]).toEqual([0, Buffer.byteLength(`${lines.join("\n")}\n`)]);
  });

  it("reads incrementally: only what was added, a line still being written left for next time, a message straddling two reads counted once", () => {
    const f = file();
    const [first, second] = assistantLines(S, { model: SONNET, id: "msg_A", usage: u(1, 2) });
    writeFileSync(f, `${first}\n${second!.slice(0, 40)}`); // the second block's line is half written
    const r1 = readTranscriptUsage(f, start);
    expect(r1.perModel.get(SONNET)).toEqual({
      inputTokens: 1,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(r1.to).toBe(Buffer.byteLength(`${first}\n`));
    appendFileSync(
      f,
      `${second!.slice(40)}\n${assistantLines(S, { model: SONNET, id: "msg_B", usage: u(3, 4) }).join("\n")}\n`,
    );
    const r2 = readTranscriptUsage(f, r1.cursor);
    expect(r2.perModel.get(SONNET)).toEqual({
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(r2.from).toBe(r1.to);
    const r3 = readTranscriptUsage(f, r2.cursor);
    expect([r3.perModel.size, r3.from, r3.to]).toEqual([0, r2.to, r2.to]);
  });

  it("reads at most maxBytes a call, and skips a line longer than a whole read", () => {
    const f = file();
    const big = userLine(S, "x".repeat(5000));
    const turn = assistantLines(S, { model: SONNET, id: "msg_C", usage: u(9, 9), blocks: 1 })[0]!;
    writeFileSync(f, `${big}\n${turn}\n`);
    let cursor = start;
    let total = 0;
    for (let i = 0; i < 10 && cursor.offset < Buffer.byteLength(`${big}\n${turn}\n`); i++) {
      const r = readTranscriptUsage(f, cursor, 2048);
      expect(r.to - r.from).toBeLessThanOrEqual(2048);
      total += r.perModel.get(SONNET)?.inputTokens ?? 0;
      cursor = r.cursor;
    }
    expect(total).toBe(9);
  });

  it("ignores synthetic and API error messages, other lines and garbage; a replaced transcript starts over", () => {
    const f = file();
    const synthetic = JSON.stringify({
      type: "assistant",
      message: { id: "m1", model: "<synthetic>", usage: u(0, 0) },
    });
    const apiError = JSON.stringify({
      type: "assistant",
      isApiErrorMessage: true,
      message: { id: "m2", model: SONNET, usage: u(1, 1) },
    });
    writeFileSync(
      f,
      `${synthetic}\n${apiError}\nnot json "usage"\n${JSON.stringify({ type: "summary", summary: "usage" })}\n`,
    );
    const r = readTranscriptUsage(f, start);
    expect(r.perModel.size).toBe(0);
    writeFileSync(f, `${assistantLines(S, { model: SONNET, id: "msg_D", usage: u(2, 2), blocks: 1 })[0]}\n`);
    expect(
      readTranscriptUsage(f, { offset: r.to + 10_000, seen: [] }).perModel.get(SONNET)?.inputTokens,
    ).toBe(2);
  });
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTranscriptUsage } from "./transcript-usage";
import { addGeminiUsageLine } from "./gemini-transcript-usage";

// Lines as Gemini CLI 0.61 records a session (text cut short): the header, the user's turn, a
// model answer written twice under one id (again with its tool call), the tool's result, the last answer.
const LINES = [
  { sessionId: "s-1", projectHash: "p", startTime: "2026-11-26T05:01:13.272Z", kind: "main" },
  { id: "u-1", type: "user", content: [{ text: "write the file" }] },
  {
    id: "g-1",
    type: "gemini",
    content: "",
    tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 },
    model: "gemini-2.5-flash",
  },
  { $set: { lastUpdated: "2026-11-26T05:01:14.859Z" } },
  {
    id: "g-1",
    type: "gemini",
    content: "",
    tokens: { input: 100, output: 10, cached: 0, thoughts: 0, tool: 0, total: 110 },
    model: "gemini-2.5-flash",
    toolCalls: [{ id: "c-1", name: "run_shell_command", args: { command: "echo ok" } }],
  },
  { id: "u-2", type: "user", content: [{ functionResponse: { name: "run_shell_command", response: {} } }] },
  {
    id: "g-2",
    type: "gemini",
    content: "All done.",
    tokens: { input: 1200, output: 30, cached: 400, thoughts: 20, tool: 0, total: 1250 },
    model: "gemini-2.5-flash",
  },
];

describe("usage from a Gemini CLI transcript", () => {
  it("counts each answer once, cached input apart, thoughts as output; nothing else is read", () => {
    const file = join(mkdtempSync(join(tmpdir(), "gemini-usage-")), "session.jsonl");
    writeFileSync(file, LINES.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const r = readTranscriptUsage(file, { offset: 0, seen: [] }, undefined, addGeminiUsageLine);
    expect([...r.perModel]).toEqual([
      ["gemini-2.5-flash", { inputTokens: 900, outputTokens: 60, cacheReadTokens: 400, cacheWriteTokens: 0 }],
    ]);
    // Read again from where it stopped: nothing new.
    expect(readTranscriptUsage(file, r.cursor, undefined, addGeminiUsageLine).perModel.size).toBe(0);
  });
});

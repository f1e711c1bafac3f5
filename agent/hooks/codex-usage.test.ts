import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codexCostOf, countCodexLine } from "./codex-usage";
import { readTranscriptUsage } from "./transcript-usage";

// Lines as Codex 0.169.0 wrote them (the rate_limits and other fields cut).
const turn = (model: string) => JSON.stringify({ type: "turn_context", payload: { cwd: "/w", model } });
const tokens = (total: number, input: number, cached: number, output: number) =>
  JSON.stringify({
    type: "event_msg",
    payload: {
      type: "token_count",
      info: {
        total_token_usage: { total_tokens: total },
        last_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output },
      },
    },
  });
const prompt = JSON.stringify({
  type: "response_item",
  payload: { type: "message", content: "token_count" },
});

describe("Codex session log usage", () => {
  it("counts each model call once, cached input apart, under its turn's model, across reads", () => {
    const file = join(mkdtempSync(join(tmpdir(), "codex-usage-")), "rollout.jsonl");
    const first = [turn("gpt-5-codex"), tokens(120, 100, 10, 20), tokens(120, 100, 10, 20), prompt];
    writeFileSync(file, `${first.join("\n")}\n`);
    const a = readTranscriptUsage(file, { offset: 0, seen: [] }, undefined, countCodexLine);
    expect(Object.fromEntries(a.perModel)).toEqual({
      "gpt-5-codex": { inputTokens: 90, cacheReadTokens: 10, outputTokens: 20, cacheWriteTokens: 0 },
    });
    writeFileSync(
      file,
      `${[...first, tokens(240, 100, 0, 20), turn("gpt-5-mini"), tokens(250, 5, 0, 5)].join("\n")}\n`,
    );
    const b = readTranscriptUsage(file, a.cursor, undefined, countCodexLine);
    expect(Object.fromEntries(b.perModel)).toEqual({
      "gpt-5-codex": { inputTokens: 100, cacheReadTokens: 0, outputTokens: 20, cacheWriteTokens: 0 },
      "gpt-5-mini": { inputTokens: 5, cacheReadTokens: 0, outputTokens: 5, cacheWriteTokens: 0 },
    });
    expect(b.from).toBe(a.to);
  });

  it("prices a listed model by its id or dated id, and no other", () => {
    const t = {
      inputTokens: 1_000_000,
      cacheReadTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheWriteTokens: 0,
    };
    expect(codexCostOf("gpt-5-codex", t)).toBe(1.25 + 0.125 + 10);
    expect(codexCostOf("gpt-5-2025-08-07", t)).toBe(11.375);
    expect(codexCostOf("gpt-5.5", t)).toBeUndefined();
    expect(codexCostOf("gpt-5-unknown", t)).toBeUndefined();
  });
});

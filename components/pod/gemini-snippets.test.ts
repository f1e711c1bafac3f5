import { describe, expect, it } from "vitest";
import { geminiHooksSnippet, geminiSetupSnippet } from "./gemini-snippets";
import { mergeGeminiHooks } from "@/agent/hooks/gemini-hooks";

const input = { publicUrl: "https://podwatch.example.com/", podId: "pod-1", token: "pwa_a'b" };

describe("Gemini CLI snippets", () => {
  it("set both variables, install the kit from this server, then the hooks", () => {
    expect(geminiSetupSnippet(input).split("\n")).toEqual([
      `export PODWATCH_URL=https://podwatch.example.com PODWATCH_TOKEN='pwa_a'\\''b'`,
      `npm install -g "$PODWATCH_URL/agent/podwatch.tgz"`,
      "podwatch hooks install --agent gemini",
    ]);
  });

  it("shows exactly the hooks install writes into empty settings", () => {
    expect(JSON.parse(geminiHooksSnippet())).toEqual(mergeGeminiHooks({}));
  });
});

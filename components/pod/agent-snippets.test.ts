import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { mcpSnippet, shellSnippet, shellWord } from "./agent-snippets";

const input = { publicUrl: "http://127.0.0.1:3000", podId: "8d1f2c3e-0000-4000-8000-000000000001", token: "pwa_AbC-12_x" };

describe("agent snippets", () => {
  it("the shell snippet sets the three variables the CLI reads", () => {
    expect(shellSnippet(input)).toBe(`export PODWATCH_URL=http://127.0.0.1:3000 PODWATCH_TOKEN=pwa_AbC-12_x PODWATCH_POD=${input.podId}`);
  });

  it("a shell reads back exactly what was quoted", () => {
    for (const s of ["plain", "with space", "it's", "$(rm -rf /)", "a'b'c", "`x`", "semi;colon"]) {
      const echoed = execFileSync("sh", ["-c", `printf %s ${shellWord(s)}`], { encoding: "utf8" });
      expect(echoed).toBe(s);
    }
  });

  it("the MCP config is the README's shape with this pod's values", () => {
    expect(JSON.parse(mcpSnippet(input))).toEqual({
      mcpServers: { podwatch: { command: "podwatch", args: ["mcp"], env: { PODWATCH_URL: input.publicUrl, PODWATCH_TOKEN: input.token, PODWATCH_POD: input.podId } } },
    });
  });
});

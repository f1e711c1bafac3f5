// The Claude Code guide's settings (docs/agents/claude-code.md) are what `podwatch hooks install`
// writes: pasting either block gives the same file as the command.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ourHooks } from "./our-hooks";
import { mergeHooks } from "./settings-merge";

const GUIDE = readFileSync(join(import.meta.dirname, "..", "..", "docs", "agents", "claude-code.md"), "utf8");

/** The guide's JSON blocks, in order. */
const jsonBlocks = (): unknown[] =>
  [...GUIDE.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));

describe("the Claude Code guide's settings", () => {
  it("are exactly what hooks install writes, for the command and the HTTP form", () => {
    const [command, http] = jsonBlocks();
    expect(command).toEqual(mergeHooks({}, ourHooks("command", "")));
    expect(http).toEqual(mergeHooks({}, ourHooks("http", "http://127.0.0.1:3000")));
  });
});

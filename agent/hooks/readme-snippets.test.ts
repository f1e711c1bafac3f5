// The README's "Connect Claude Code" settings are what `podwatch hooks install` writes: pasting
// either block gives the same file as the command.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ourHooks } from "./our-hooks";
import { mergeHooks } from "./settings-merge";

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

function jsonBlocks(heading: string): unknown[] {
  const start = README.indexOf(`\n${heading}\n`);
  const end = README.indexOf("\n## ", start + heading.length + 2);
  return [...README.slice(start, end).matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
}

describe("the README's Claude Code settings", () => {
  it("are exactly what hooks install writes, for the command and the HTTP form", () => {
    const [command, http] = jsonBlocks("## Connect Claude Code");
    expect(command).toEqual(mergeHooks({}, ourHooks("command", "")));
    expect(http).toEqual(mergeHooks({}, ourHooks("http", "http://127.0.0.1:3000")));
  });
});

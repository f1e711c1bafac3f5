import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CommonToolsTable, toolNameSuggestions } from "./common-tools-table";
import { PRESETS } from "./policy-draft";

const text = (html: string) => html.replace(/<[^>]+>/g, "|").replace(/\|+/g, "|");

describe("the policy editor's common tool names", () => {
  it("shows what each agent calls shell, read, write and edit", () => {
    const rows = text(renderToStaticMarkup(createElement(CommonToolsTable)));
    expect(rows).toContain("|Common|Claude Code|Codex|Gemini CLI|");
    expect(rows).toContain("|shell|Bash|Bash|run_shell_command|");
    expect(rows).toContain("|write|Write|apply_patch|write_file|");
    expect(rows).toContain("|edit|Edit, MultiEdit, NotebookEdit|apply_patch|replace|");
    expect(rows).toContain(
      "|read|Read, Grep, Glob, LS|—|read_file, read_many_files, grep_search, glob, list_directory|",
    );
  });
  it("suggests the common names first, then each agent's own once", () => {
    const names = toolNameSuggestions();
    expect(names.slice(0, 4)).toEqual(["shell", "read", "write", "edit"]);
    expect(names.filter((n) => n === "Bash")).toHaveLength(1);
    expect(names).toContain("run_shell_command");
  });
  it("offers presets that govern every agent", () => {
    expect(PRESETS.map((p) => p.rule.tool)).toEqual(["shell", "write|edit", "mcp__*"]);
  });
});

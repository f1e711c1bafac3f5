// Each agent's tools, seen in one vocabulary so one policy governs them all. A call of any agent
// (Claude Code, Codex, Gemini CLI) is: the common tools it is (shell, read, write, edit; none:
// another tool) and the Claude Code calls its subject is read from (tool-policy.ts knows their
// shapes): Gemini's run_shell_command is a Bash, its write_file a Write, Codex's apply_patch one
// Write or Edit per file it touches. A call whose subject cannot be told (a patch naming no file, a
// file tool naming no path) is opaque: a deny or ask rule on its tools matches it, an allow rule
// with an input pattern never does. Pure.
import { COMMON_TOOL_NAMES, COMMON_TOOLS, type AgentKind, type CommonTool } from "../vocabulary";

export { COMMON_TOOL_NAMES, COMMON_TOOLS, type CommonTool };

/** One Claude Code-shaped call the subject is read from. */
export type ToolView = { tool: string; input: unknown };
export type CommonCall = { common: CommonTool[]; views: ToolView[]; opaque: boolean };

type Obj = Record<string, unknown>;
type Mapper = (input: Obj) => { common: CommonTool[]; views: ToolView[] } | null;

const str = (o: Obj, key: string) => (typeof o[key] === "string" ? o[key] : undefined);
const strings = (o: Obj, keys: string[]) => [
  ...new Set(keys.map((k) => o[k]).filter((v): v is string => typeof v === "string")),
];
/**
 * A tool whose input names its subject under one of `keys`, read as Claude Code's `tool` with it
 * in `field`. Every one given is a view: which one the agent reads is its own business, so a deny
 * sees each and an allow must admit each.
 */
function as(common: CommonTool, tool: string, field: string, keys: string[]): Mapper {
  return (o) => {
    const values = strings(o, keys);
    return values.length === 0
      ? null
      : { common: [common], views: values.map((value) => ({ tool, input: { [field]: value } })) };
  };
}
const same =
  (common: CommonTool, tool: string): Mapper =>
  (o) => ({ common: [common], views: [{ tool, input: o }] });
/** A search: Claude Code's Glob or Grep or LS, its folder under `path` (Gemini names it `dir_path`). */
const search =
  (tool: "Glob" | "Grep" | "LS"): Mapper =>
  (o) => {
    const pattern = str(o, "pattern");
    if (tool === "Glob" && pattern === undefined) return null;
    const folders = strings(o, ["dir_path", "path"]);
    const views = (folders.length ? folders : [undefined]).map((path) => ({
      tool,
      input: { ...(path !== undefined ? { path } : {}), ...(tool === "Glob" ? { pattern } : {}) },
    }));
    return { common: ["read"], views };
  };

const CLAUDE_CODE: Record<string, Mapper> = {
  Bash: as("shell", "Bash", "command", ["command"]),
  Read: same("read", "Read"),
  Grep: same("read", "Grep"),
  Glob: same("read", "Glob"),
  LS: same("read", "LS"),
  Write: same("write", "Write"),
  Edit: same("edit", "Edit"),
  MultiEdit: same("edit", "MultiEdit"),
  NotebookEdit: same("edit", "NotebookEdit"),
};

const CODEX: Record<string, Mapper> = {
  // Codex hands its shell tools (exec_command, local_shell…) to hooks as "Bash" with {command}.
  Bash: CLAUDE_CODE.Bash!,
  apply_patch: (o) => {
    const texts = strings(o, ["command", "patch", "input"]);
    return patchCall(texts.length ? texts.join("\n") : undefined);
  },
};

const GEMINI_CLI: Record<string, Mapper> = {
  run_shell_command: as("shell", "Bash", "command", ["command"]),
  read_file: as("read", "Read", "file_path", ["file_path", "absolute_path", "path"]),
  write_file: as("write", "Write", "file_path", ["file_path", "absolute_path", "path"]),
  replace: as("edit", "Edit", "file_path", ["file_path", "absolute_path", "path"]),
  glob: search("Glob"),
  grep_search: search("Grep"),
  search_file_content: search("Grep"),
  list_directory: search("LS"),
  read_many_files: (o) => {
    const globs = [o.include, o.paths].flatMap((v) => (Array.isArray(v) ? v : []));
    if (globs.length === 0 || globs.some((g) => typeof g !== "string")) return null;
    return { common: ["read"], views: globs.map((pattern) => ({ tool: "Glob", input: { pattern } })) };
  },
};

const TABLES: Record<AgentKind, Record<string, Mapper>> = {
  "claude-code": CLAUDE_CODE,
  codex: CODEX,
  "gemini-cli": GEMINI_CLI,
};

/**
 * The call in the common vocabulary. The agent's own names first; a name only another agent uses
 * is read as that agent's, so a hook that arrives under the wrong kind still meets the rules on
 * its tool. Another tool is itself, with no common tool.
 */
export function commonCall(agent: AgentKind, tool: string, input: unknown): CommonCall {
  const obj = input && typeof input === "object" && !Array.isArray(input) ? (input as Obj) : {};
  const tables = [TABLES[agent], ...Object.values(TABLES).filter((t) => t !== TABLES[agent])];
  const table = tables.find((t) => Object.hasOwn(t, tool));
  if (!table) return { common: [], views: [{ tool, input }], opaque: false };
  const mapped = table[tool]!(obj);
  if (mapped) return { ...mapped, opaque: false };
  return { common: OPAQUE_COMMON[tool] ?? commonOf(tool), views: [], opaque: true };
}

/** An opaque patch may add, change or remove anything. */
const OPAQUE_COMMON: Record<string, CommonTool[]> = { apply_patch: ["write", "edit"] };
const commonOf = (tool: string): CommonTool[] =>
  COMMON_TOOLS.filter((c) => Object.values(COMMON_TOOL_NAMES[c]).some((names) => names.includes(tool)));

const PATCH_LINE = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;
/** The envelope's other markers; any other `***` line is a grammar podwatch does not read. */
const PATCH_FRAME = /^\*\*\* (Begin Patch|End Patch|End of File)$/;

/**
 * Codex's patch envelope (`*** Update File: src/a.ts`, `*** Add File:`, `*** Delete File:`,
 * `*** Move to:`): an Edit per file it changes in place, a Write per file it creates, removes,
 * moves or moves to. Codex reads a marker with spaces around it, so each line is trimmed first.
 * Null (opaque) when it names no file, or holds a `***` line that is no marker podwatch knows.
 */
function patchCall(patch: string | undefined): { common: CommonTool[]; views: ToolView[] } | null {
  if (patch === undefined) return null;
  const views: ToolView[] = [];
  const common = new Set<CommonTool>();
  const write = (file_path: string) => (common.add("write"), { tool: "Write", input: { file_path } });
  for (const raw of patch.split(/\r?\n/)) {
    const line = raw.trim();
    const m = PATCH_LINE.exec(line);
    if (!m && line.startsWith("***") && !PATCH_FRAME.test(line)) return null;
    if (!m) continue;
    const path = m[2]!.trim();
    if (m[1] !== "Update File") {
      // A move removes the file it updates: that file is written too, not only edited.
      const moved = m[1] === "Move to" ? views.at(-1) : undefined;
      if (moved?.tool === "Edit")
        views[views.length - 1] = write((moved.input as { file_path: string }).file_path);
      views.push(write(path));
    } else {
      common.add("edit");
      views.push({ tool: "Edit", input: { file_path: path } });
    }
  }
  return views.length ? { common: COMMON_TOOLS.filter((c) => common.has(c)), views } : null;
}

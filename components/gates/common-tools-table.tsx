// What the common tool names of a policy stand for in each agent's own words: one editor governs
// Claude Code, Codex and Gemini CLI, so a rule on `shell` covers Bash and run_shell_command alike
// (server/domain/state/tool-vocabulary.ts reads each call so). Also the tool field's suggestions.
import { AGENT_KINDS, COMMON_TOOL_NAMES, COMMON_TOOLS } from "@/server/wire/vocabulary";
import { AGENT_KIND_LABELS } from "../inbox/agent-kind-badge";

export const TOOL_NAMES_LIST_ID = "policy-tool-names";
const cell = "border-b border-zinc-200 px-2 py-1 text-left align-top dark:border-zinc-800";

/** Every name a rule's tool may take, common first: the tool field's suggestions. */
export const toolNameSuggestions = (): string[] => [
  ...COMMON_TOOLS,
  ...new Set(COMMON_TOOLS.flatMap((c) => AGENT_KINDS.flatMap((k) => COMMON_TOOL_NAMES[c][k]))),
  "mcp__*",
];

export function CommonToolsTable() {
  return (
    <details className="text-xs text-zinc-700 dark:text-zinc-300" data-testid="common-tools">
      <summary className="cursor-pointer font-medium">
        One policy for every agent: the common tool names
      </summary>
      <p className="mt-1">
        A rule on <code>shell</code>, <code>read</code>, <code>write</code> or <code>edit</code> matches each
        agent&apos;s own tool below; its input pattern is read the same way for all (the command, or the
        path). A rule naming an agent&apos;s own tool (<code>Bash</code>, <code>run_shell_command</code>)
        matches only that tool. An allow on a common name must name all a call is: a Codex patch that adds a
        file needs <code>write</code>.
      </p>
      <table className="mt-1 w-full border-collapse">
        <caption className="sr-only">What each agent calls each common tool</caption>
        <thead>
          <tr>
            <th scope="col" className={cell}>
              Common
            </th>
            {AGENT_KINDS.map((k) => (
              <th key={k} scope="col" className={cell}>
                {AGENT_KIND_LABELS[k]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {COMMON_TOOLS.map((c) => (
            <tr key={c}>
              <th scope="row" className={`${cell} font-mono`}>
                {c}
              </th>
              {AGENT_KINDS.map((k) => (
                <td key={k} className={`${cell} font-mono`}>
                  {COMMON_TOOL_NAMES[c][k].join(", ") || "—"}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** The tool field's suggestions, once per editor. */
export function ToolNamesList() {
  return (
    <datalist id={TOOL_NAMES_LIST_ID}>
      {toolNameSuggestions().map((n) => (
        <option key={n} value={n} />
      ))}
    </datalist>
  );
}

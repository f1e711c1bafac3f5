"use client";
// How a real agent joins with this token: the CLI, or with no code Claude Code's hooks (HTTP or command), Codex's,
// Gemini CLI's, MCP (remote over /mcp, or local over stdio), OpenTelemetry. WAI-ARIA tabs, one panel shown; each
// shows what one pastes, a whole settings file folded (its copy button copies all of it).
import { useRef, useState, type ReactNode } from "react";
import {
  claudeCommandHooksSnippet,
  claudeHttpEnvSnippet,
  claudeHttpHooksSnippet,
  kitInstallSnippet,
  mcpRemoteCommand,
  mcpRemoteSnippet,
  mcpSnippet,
  otelSnippet,
  shellSnippet,
  type SnippetInput,
} from "./agent-snippets";
import { codexHooksJsonSnippet, codexHooksSnippet } from "./codex-snippets";
import { geminiHooksSnippet, geminiSetupSnippet } from "./gemini-snippets";
import { tabForKey } from "./pod-tabs";
import { Snippet } from "./copy-snippet";

const hint = "text-xs text-zinc-600 dark:text-zinc-400";
const FORMS: { id: string; label: string; body: (s: SnippetInput) => ReactNode }[] = [
  {
    id: "cli",
    label: "Command line",
    body: (s) => (
      <>
        <Snippet
          title="Install the podwatch command"
          testId="snippet-kit"
          text={kitInstallSnippet(s)}
          hint="On the agent's machine, with Node 20 or later: the kit this server serves, nothing else to clone."
        />
        <Snippet title="Shell environment for the CLI" testId="snippet-shell" text={shellSnippet(s)} />
      </>
    ),
  },
  {
    id: "claude-http",
    label: "Claude Code (HTTP hooks)",
    body: (s) => (
      <>
        <Snippet
          title="On the agent's machine, where you start claude"
          testId="snippet-claude-env"
          text={claudeHttpEnvSnippet(s)}
          hint="The hooks read the token from this environment, so the settings file holds none; the usage hook runs podwatch."
        />
        <Snippet
          title=".claude/settings.local.json"
          testId="snippet-claude-http"
          text={claudeHttpHooksSnippet(s)}
          whole
          hint="Copy it and merge it into the project's settings (or run the command hooks' install, which merges for you)."
        />
      </>
    ),
  },
  {
    id: "claude-command",
    label: "Claude Code (command hooks)",
    body: (s) => (
      <Snippet
        title="On the agent's machine, in the project's folder"
        testId="snippet-claude-command"
        text={claudeCommandHooksSnippet(s)}
        hint="podwatch hook runs per hook and spools to a file while podwatch is down; keep the two variables in claude's environment. --dry-run shows the change first."
      />
    ),
  },
  {
    id: "codex",
    label: "Codex",
    body: (s) => (
      <>
        <Snippet
          title="On the agent's machine, in the shell you start codex from"
          testId="snippet-codex"
          text={codexHooksSnippet(s)}
          hint="Then start codex from this shell and, once, open /hooks to trust podwatch's hooks: Codex skips hooks it has not trusted."
        />
        <Snippet
          title="~/.codex/hooks.json (what the install writes)"
          testId="snippet-codex-hooks"
          text={codexHooksJsonSnippet()}
          whole
        />
      </>
    ),
  },
  {
    id: "gemini",
    label: "Gemini CLI",
    body: (s) => (
      <>
        <Snippet
          title="On the agent's machine, in the shell you start gemini from"
          testId="snippet-gemini"
          text={geminiSetupSnippet(s)}
          hint="Then start gemini from this shell: its hooks read PODWATCH_URL and PODWATCH_TOKEN."
        />
        <Snippet
          title="~/.gemini/settings.json (the hooks the install merges)"
          testId="snippet-gemini-hooks"
          text={geminiHooksSnippet()}
          whole
        />
      </>
    ),
  },
  {
    id: "mcp-remote",
    label: "MCP (remote)",
    body: (s) => (
      <>
        <Snippet
          title="MCP client config (remote)"
          testId="snippet-mcp-remote"
          text={mcpRemoteSnippet(s)}
          hint="Streamable HTTP at /mcp: nothing to install on the agent's machine."
        />
        <Snippet
          title="Or with the Claude Code CLI, where claude runs"
          testId="snippet-mcp-remote-command"
          text={mcpRemoteCommand(s)}
        />
      </>
    ),
  },
  {
    id: "mcp-local",
    label: "MCP (local)",
    body: (s) => (
      <>
        <Snippet title="On the agent's machine" testId="snippet-mcp-kit" text={kitInstallSnippet(s)} />
        <Snippet
          title="MCP client config"
          testId="snippet-mcp"
          text={mcpSnippet(s)}
          hint="podwatch mcp over stdio, from the kit installed above (Node 20 or later, nothing else)."
        />
      </>
    ),
  },
  {
    id: "otel",
    label: "OpenTelemetry",
    body: (s) => (
      <Snippet
        title="OTLP trace exporter environment"
        testId="snippet-otel"
        text={otelSnippet(s)}
        hint="In the agent's environment. Any SDK's OTLP/HTTP exporter (http/protobuf or http/json; not grpc): GenAI spans become sessions, tool calls and usage."
      />
    ),
  },
];

export function ConnectSnippets({ input }: { input: SnippetInput }) {
  const [current, setCurrent] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: React.KeyboardEvent, index: number) => {
    const next = tabForKey(e.key, index, FORMS.length);
    if (next === null) return;
    e.preventDefault();
    setCurrent(next);
    tabs.current[next]?.focus();
  };
  return (
    <div className="space-y-2" data-testid="connect-snippets">
      <p className="text-xs font-medium text-zinc-700 dark:text-zinc-300">How the agent connects</p>
      <div role="tablist" aria-label="How the agent connects" className="flex flex-wrap gap-1">
        {FORMS.map((f, i) => (
          <button
            key={f.id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            role="tab"
            id={`connect-tab-${f.id}`}
            aria-selected={i === current}
            aria-controls={`connect-panel-${f.id}`}
            tabIndex={i === current ? 0 : -1}
            onClick={() => setCurrent(i)}
            onKeyDown={(e) => onKey(e, i)}
            className={`rounded-md border px-2 py-1 text-xs ${i === current ? "border-emerald-600 bg-white font-medium text-zinc-900 dark:border-emerald-500 dark:bg-zinc-900 dark:text-zinc-100" : "border-transparent text-zinc-700 hover:bg-white/60 dark:text-zinc-300 dark:hover:bg-zinc-900/60"}`}
          >
            {f.label}
          </button>
        ))}
      </div>
      {/* Every panel is rendered (hidden but one), so each form's text is in the page to copy or read. */}
      {FORMS.map((f, i) => (
        <div
          key={f.id}
          role="tabpanel"
          id={`connect-panel-${f.id}`}
          aria-labelledby={`connect-tab-${f.id}`}
          hidden={i !== current}
          className="space-y-2"
        >
          {f.body(input)}
        </div>
      ))}
      <p className={hint}>
        The guides in the repository&apos;s docs/agents/ (Claude Code, OpenAI Codex, Gemini CLI,
        OpenTelemetry) walk through each form.
      </p>
    </div>
  );
}

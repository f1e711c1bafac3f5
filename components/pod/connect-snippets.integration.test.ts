// Every connect snippet, run as shown against a real server, each on a clean machine of its own: an
// empty project folder, a private HOME and npm prefix, and on the PATH only Node, npm, the system's
// tools and (for `claude mcp add`) the real Claude Code CLI. The token panel's snippets come from the
// functions it renders (CONNECT_FORMS); the documents' are their fenced blocks marked
// `<!-- connect-snippet: KIND -->` (the README's, each ## section one machine, and each guide's in
// docs/agents/, each file one machine), with the server's URL and a token in place of its
// placeholders. Then each is checked for what it says it does.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantLines } from "@/agent/hooks/testing/transcript";
import { agentPod, api, startTestServer, type TestServer } from "@/server/testing/test-server";
import { CONNECT_FORMS, type SnippetInput, type SnippetKind } from "./agent-snippets";
import { CODEX_FORMS } from "./codex-snippets";
import { GEMINI_FORMS } from "./gemini-snippets";

const ROOT = join(import.meta.dirname, "..", "..");
/** The documents with connect snippets, and the heading level that starts a machine in each. */
const DOCUMENTS: [file: string, level: number][] = [
  ["README.md", 2],
  ["docs/agents/cli-sdk-mcp.md", 1],
  ["docs/agents/claude-code.md", 1],
  ["docs/agents/codex.md", 1],
  ["docs/agents/gemini-cli.md", 1],
  ["docs/agents/opentelemetry.md", 1],
];
/** The token panel's forms; another agent's forms join with one line here. */
const UI_FORMS = { ...CONNECT_FORMS, ...CODEX_FORMS, ...GEMINI_FORMS };

type Step = { kind: SnippetKind; text: string };
type Machine = { home: string; project: string; env: Record<string, string> };
type Ran = { code: number; stdout: string; stderr: string };
/** One hook of Claude Code's settings, command or HTTP. */
type Hook = {
  type: string;
  command?: string;
  url?: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
};

/** The documents' marked blocks, per machine ("file: heading"), in order. Placeholders stay; `fill` puts real values in. */
function readmeSessions(): Record<string, Step[]> {
  const sessions: Record<string, Step[]> = {};
  const marked = /^<!-- connect-snippet: ([a-z-]+) -->\n```\w*\n([\s\S]*?)```/gm;
  for (const [file, level] of DOCUMENTS) {
    const text = readFileSync(join(ROOT, file), "utf8");
    // Headings outside code blocks (a `# comment` in a block is none), at their places in the text.
    const prose = text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, " "));
    const headings = [...prose.matchAll(new RegExp(`^#{1,${level}} (.+)$`, "gm"))];
    for (const m of text.matchAll(marked)) {
      const section = `${file}: ${headings.filter((h) => h.index! < m.index!).at(-1)?.[1] ?? ""}`;
      (sessions[section] ??= []).push({ kind: m[1] as SnippetKind, text: m[2]! });
    }
  }
  return sessions;
}
const fill = (text: string, s: SnippetInput) =>
  text.replaceAll("http://127.0.0.1:3000", s.publicUrl).replaceAll("pwa_…", s.token);

function run(command: string, args: string[], m: Machine, input?: string): Promise<Ran> {
  const child = spawn(command, args, { cwd: m.project, env: m.env as NodeJS.ProcessEnv });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  child.stdin.end(input ?? "");
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

describe("every connect snippet, as shown, from a clean folder", () => {
  let s: TestServer;
  let claudeOnly: string;
  const machines: string[] = [];
  beforeAll(async () => {
    s = await startTestServer("sqlite");
    // The real Claude Code CLI, and nothing else of this checkout's node_modules.
    claudeOnly = mkdtempSync(join(tmpdir(), "podwatch-claude-bin-"));
    symlinkSync(join(ROOT, "node_modules", ".bin", "claude"), join(claudeOnly, "claude"));
  });
  afterAll(async () => {
    await s?.stop();
    for (const dir of [claudeOnly, ...machines]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function newMachine(): Machine {
    const root = mkdtempSync(join(tmpdir(), "podwatch-machine-"));
    machines.push(root);
    const home = join(root, "home");
    const project = join(root, "project");
    mkdirSync(home);
    mkdirSync(project);
    const prefix = join(home, ".npm-global");
    const env: Record<string, string> = {
      HOME: home,
      PATH: [join(prefix, "bin"), claudeOnly, dirname(process.execPath), "/usr/bin", "/bin"].join(":"),
      // A user's own npm set-up: global installs into their home, nothing reported anywhere.
      npm_config_prefix: prefix,
      npm_config_update_notifier: "false",
      npm_config_fund: "false",
      npm_config_audit: "false",
      // Claude Code offline: no updates, telemetry or reports.
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    };
    return { home, project, env };
  }

  const tape = async (podId: string) =>
    (await api(s.url, "GET", `/api/v1/pods/${podId}/events?limit=1000`)).body.events as {
      type: string;
      body: Record<string, unknown>;
      meta?: { sessionId?: string };
    }[];

  /** A shell snippet pasted into a terminal: every line must work; the terminal's environment carries on. */
  async function runShell(step: Step, m: Machine) {
    const envFile = join(m.home, ".snippet-env");
    const r = await run("bash", ["-c", `set -e\n${step.text}\nenv -0 > ${envFile}`], m);
    expect({ snippet: step.text, code: r.code, stderr: r.stderr }).toEqual({
      snippet: step.text,
      code: 0,
      stderr: expect.not.stringMatching(/command not found|E404|npm error/),
    });
    m.env = Object.fromEntries(
      readFileSync(envFile, "utf8")
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)])
        .filter(([k]) => !["PWD", "OLDPWD", "SHLVL", "_"].includes(k!)),
    );
  }

  /** An MCP client's config: every server in it connects, lists podwatch's tools and checkpoints. */
  async function connectMcp(config: string, m: Machine, podId: string, label: string) {
    const servers = JSON.parse(config).mcpServers as Record<string, Record<string, unknown>>;
    expect(Object.keys(servers)).toEqual(["podwatch"]);
    for (const server of Object.values(servers)) {
      const transport =
        server.type === "http"
          ? new StreamableHTTPClientTransport(new URL(server.url as string), {
              requestInit: { headers: server.headers as Record<string, string> },
            })
          : new StdioClientTransport({
              command: server.command as string,
              args: server.args as string[],
              // A client starts the server with the config's variables over its own PATH and HOME.
              env: { PATH: m.env.PATH!, HOME: m.home, ...(server.env as Record<string, string>) },
              cwd: m.project,
              stderr: "pipe",
            });
      const client = new Client({ name: "connect-snippets", version: "1" });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools).toContain("checkpoint");
        const done = await client.callTool({
          name: "checkpoint",
          arguments: { completed: [label], next: ["more"], blocked: [] },
        });
        expect(done.isError, JSON.stringify(done.content)).toBeFalsy();
      } finally {
        await client.close();
      }
      const found = (await tape(podId)).filter(
        (e) => e.type === "checkpoint" && (e.body.completed as string[])[0] === label,
      );
      expect(found, `${label}: a checkpoint through MCP`).toHaveLength(1);
    }
  }

  /**
   * Claude Code's settings run as Claude Code runs them: each event's command hooks in a shell with
   * the hook's JSON on stdin, its HTTP hooks posted with the allowed variables expanded (but none at
   * SessionStart: Claude Code runs no HTTP hook there). A session's prompt, usage and end land.
   */
  async function runClaudeSettings(m: Machine, podId: string, label: string) {
    const settings = JSON.parse(readFileSync(join(m.project, ".claude", "settings.local.json"), "utf8"));
    const session = randomUUID();
    const transcript = join(m.home, `${session}.jsonl`);
    const usage = {
      input_tokens: 12,
      output_tokens: 34,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    };
    const model = "claude-sonnet-4-5-20250929";
    writeFileSync(transcript, `${assistantLines(session, { model, id: "msg_01", usage }).join("\n")}\n`);
    const common = { session_id: session, transcript_path: transcript, cwd: m.project };
    const events: Record<string, unknown>[] = [
      { hook_event_name: "SessionStart", source: "startup" },
      { hook_event_name: "UserPromptSubmit", prompt: label },
      { hook_event_name: "Stop", stop_hook_active: false },
      { hook_event_name: "SessionEnd", reason: "other" },
    ];
    for (const event of events) {
      const name = event.hook_event_name as string;
      const input = JSON.stringify({ ...common, ...event });
      for (const hook of (settings.hooks[name] ?? []).flatMap((g: { hooks: Hook[] }) => g.hooks)) {
        if (hook.type === "command") {
          const r = await run("sh", ["-c", hook.command!], m, input);
          expect({ label, name, hook: hook.command, code: r.code, stderr: r.stderr }).toMatchObject({
            code: 0,
          });
        } else if (hook.type === "http" && name !== "SessionStart") {
          const allowed = new Set<string>(hook.allowedEnvVars ?? []);
          const expand = (v: string) =>
            v.replace(/\$\{?([A-Z_][A-Z0-9_]*)\}?/g, (all, k: string) =>
              allowed.has(k) ? (m.env[k] ?? "") : all,
            );
          const headers = Object.fromEntries(
            Object.entries<string>(hook.headers ?? {}).map(([k, v]) => [k, expand(v)]),
          );
          const r = await fetch(hook.url!, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: input,
          });
          expect({ label, name, status: r.status, body: await r.text() }).toMatchObject({ status: 200 });
        }
      }
    }
    const mine = (await tape(podId)).filter((e) => JSON.stringify(e).includes(session));
    const types = mine.map((e) => e.type);
    expect(types, label).toContain("prompt.submitted");
    expect(types, label).toContain("usage.reported");
    expect(types, label).toContain("session.ended");
    expect(mine.find((e) => e.type === "usage.reported")?.body).toMatchObject({
      inputTokens: 12,
      outputTokens: 34,
    });
  }

  /** What a machine's snippets left behind, each checked for what it says it does. */
  async function checkMachine(m: Machine, podId: string, label: string, ran: Step[]) {
    if (m.env.PODWATCH_URL && m.env.PODWATCH_TOKEN) {
      // The CLI from the kit, with the variables the snippets set: `podwatch` works in this terminal.
      const r = await run("bash", ["-c", `podwatch checkpoint -c "${label}" -n next`], m);
      expect({ label, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      expect((await tape(podId)).some((e) => (e.body.completed as string[] | undefined)?.[0] === label)).toBe(
        true,
      );
    }
    if (
      existsSync(join(m.project, ".claude", "settings.local.json")) ||
      ran.some((x) => x.kind === "claude-settings")
    )
      await runClaudeSettings(m, podId, `${label}: prompt`);
    if (m.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || m.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
      const conversation = randomUUID();
      const r = await run(
        process.execPath,
        [join(ROOT, "server/testing/export-genai-span.mjs"), conversation],
        m,
      );
      expect({ label, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      const started = (await tape(podId)).filter(
        (e) => e.type === "session.started" && JSON.stringify(e).includes(conversation),
      );
      expect(started, `${label}: a span through OTLP`).toHaveLength(1);
    }
    // Codex's and Gemini CLI's hooks, as the install wrote them: their SessionStart command, run the
    // way the agent runs it (the hook's input on stdin, in the snippet's environment), opens a session.
    for (const [via, file] of [
      ["codex", join(m.home, ".codex", "hooks.json")],
      ["gemini-cli", join(m.home, ".gemini", "settings.json")],
    ] as const) {
      if (!existsSync(file)) continue;
      const hooks = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, { hooks: Hook[] }[]> };
      const command = hooks.hooks.SessionStart?.[0]?.hooks[0]?.command;
      expect(command, `${label}: ${file} has a SessionStart hook`).toMatch(/^podwatch hook --agent /);
      const session = randomUUID();
      const input = {
        session_id: session,
        cwd: m.project,
        hook_event_name: "SessionStart",
        source: "startup",
      };
      const r = await run("bash", ["-c", command!], m, JSON.stringify(input));
      expect({ label, code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
      const started = (await tape(podId)).filter((e) => e.type === "session.started" && e.body.via === via);
      expect(
        started.map((e) => e.meta?.sessionId),
        `${label}: ${via}'s session opened`,
      ).toContain(session);
    }
    const claudeJson = join(m.home, ".claude.json");
    if (ran.some((x) => /^claude mcp add\b/m.test(x.text))) {
      // The real Claude Code checks every server it was given: podwatch's must connect.
      expect(existsSync(claudeJson)).toBe(true);
      const r = await run("claude", ["mcp", "list"], m);
      expect({ label, out: r.stdout }).toMatchObject({ out: expect.stringMatching(/podwatch.*Connected/) });
    }
  }

  async function runMachine(shown: (input: SnippetInput) => Step[], label: string) {
    const { podId, tokens } = await agentPod(s.url, label.slice(0, 40).replace(/\W+/g, "-"), {
      "agent-1": "implementer",
    });
    const input: SnippetInput = { publicUrl: s.url, podId, token: tokens["agent-1"]! };
    const m = newMachine();
    const ran: Step[] = [];
    for (const step of shown(input)) {
      ran.push(step);
      if (step.kind === "shell") await runShell(step, m);
      if (step.kind === "mcp-json") await connectMcp(step.text, m, podId, `${label}: MCP ${ran.length}`);
      if (step.kind === "claude-settings") {
        mkdirSync(join(m.project, ".claude"), { recursive: true });
        writeFileSync(join(m.project, ".claude", "settings.local.json"), step.text);
        await runClaudeSettings(m, podId, `${label}: settings ${ran.length}`);
      }
    }
    await checkMachine(m, podId, label, ran);
    // No snippet names a package of a registry: the kit comes from this server only.
    for (const step of ran)
      expect(step.text).not.toMatch(/\bnpx\b|npm (?:i|install)\b(?! -g (?:http|"\$PODWATCH_URL\/))/);
  }

  for (const [form, snippets] of Object.entries(UI_FORMS)) {
    it(`the token panel's ${form}`, async () => {
      await runMachine((input) => snippets.map((x) => ({ kind: x.kind, text: x.text(input) })), `ui ${form}`);
    }, 180_000);
  }

  const sessions = readmeSessions();
  it("the documents mark their connect snippets in each section that has one", () => {
    expect(Object.keys(sessions)).toEqual(
      expect.arrayContaining([
        "README.md: Connect Claude Code",
        "docs/agents/cli-sdk-mcp.md: Agents join in one line: CLI, SDK and MCP",
        "docs/agents/claude-code.md: Connect Claude Code",
        "docs/agents/opentelemetry.md: Connect anything that speaks OpenTelemetry",
      ]),
    );
  });
  for (const [section, steps] of Object.entries(sessions)) {
    it(`the snippets of ${section}`, async () => {
      await runMachine(
        (input) => steps.map((x) => ({ kind: x.kind, text: fill(x.text, input) })),
        `readme ${section}`,
      );
    }, 180_000);
  }
});

// What an agent needs to join, as text to paste: the CLI's shell environment
// and an MCP client's config, filled in with this server's URL and the token.
import { settingsWith, TOKEN_ENV } from "@/agent/hooks/settings-snippet";
import { ourHooks } from "@/agent/hooks/our-hooks";

export type SnippetInput = { publicUrl: string; podId: string; token: string };

/** A word the shell reads back exactly: bare when it is plainly safe, else single-quoted. */
export const shellWord = (s: string) =>
  /^[A-Za-z0-9_\-.:/@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

// --- The agent kit: the `podwatch` command, installed from this server (server/agent-kit/) ---
/** The server's address without a trailing slash. */
export const origin = (publicUrl: string) => publicUrl.replace(/\/+$/, "");
/** Where this server serves the agent kit, an npm tarball with no dependencies. */
export const kitUrl = (publicUrl: string) => `${origin(publicUrl)}/agent/podwatch.tgz`;
/**
 * Installs `podwatch` from this server, with Node only: no registry package is named, so no one
 * else's package can ever run in its place.
 */
export const kitInstallSnippet = ({ publicUrl }: SnippetInput) =>
  `npm install -g ${shellWord(kitUrl(publicUrl))}   # once, on the agent's machine: the podwatch command`;

export function shellSnippet({ publicUrl, podId, token }: SnippetInput): string {
  return `export PODWATCH_URL=${shellWord(publicUrl)} PODWATCH_TOKEN=${shellWord(token)} PODWATCH_POD=${shellWord(podId)}`;
}

/** The MCP server as the README's MCP section configures it (`podwatch mcp` over stdio). */
export function mcpSnippet({ publicUrl, podId, token }: SnippetInput): string {
  const server = {
    command: "podwatch",
    args: ["mcp"],
    env: { PODWATCH_URL: publicUrl, PODWATCH_TOKEN: token, PODWATCH_POD: podId },
  };
  return JSON.stringify({ mcpServers: { podwatch: server } }, null, 2);
}

// --- Real agents without code: Claude Code hooks, remote MCP, OpenTelemetry ---

/**
 * `.claude/settings.local.json` with podwatch's HTTP hooks: exactly what `podwatch hooks install
 * --http` merges, including the one command hook at the stops that reads token usage from the
 * transcript (an HTTP hook cannot).
 */
export function claudeHttpHooksSnippet({ publicUrl }: SnippetInput): string {
  return JSON.stringify(settingsWith(ourHooks("http", publicUrl)), null, 2);
}
/**
 * What Claude Code's machine needs for the HTTP hooks: the token, read by `allowedEnvVars`, and for the
 * one command hook at the stops (`podwatch hook --usage-only`) the kit and the server's URL too.
 */
export const claudeHttpEnvSnippet = (s: SnippetInput) =>
  `${kitInstallSnippet(s)}\nexport PODWATCH_URL=${shellWord(origin(s.publicUrl))} ${TOKEN_ENV}=${shellWord(s.token)}`;

/**
 * Command hooks: `podwatch hook` runs per hook (spools when podwatch is down); install merges them
 * into the settings of the folder it runs in. `podwatch` is the kit this server serves.
 */
export function claudeCommandHooksSnippet(s: SnippetInput): string {
  return [
    kitInstallSnippet(s),
    `export PODWATCH_URL=${shellWord(origin(s.publicUrl))} ${TOKEN_ENV}=${shellWord(s.token)}`,
    "podwatch hooks install --scope local   # in the project's folder; then start claude from this shell",
  ].join("\n");
}

/** The MCP server podwatch serves itself over Streamable HTTP at /mcp: nothing to install. */
export function mcpRemoteSnippet({ publicUrl, token }: SnippetInput): string {
  const server = {
    type: "http",
    url: `${origin(publicUrl)}/mcp`,
    headers: { Authorization: `Bearer ${token}` },
  };
  return JSON.stringify({ mcpServers: { podwatch: server } }, null, 2);
}
export function mcpRemoteCommand({ publicUrl, token }: SnippetInput): string {
  return `claude mcp add --transport http podwatch ${shellWord(`${origin(publicUrl)}/mcp`)} --header ${shellWord(`Authorization: Bearer ${token}`)}`;
}

/**
 * An OpenTelemetry SDK's OTLP/HTTP trace exporter, configured by the standard variables (headers are
 * URL-encoded). The protocol is said: an SDK's default may be gRPC, which podwatch does not speak.
 */
export function otelSnippet({ publicUrl, token }: SnippetInput): string {
  return [
    `export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${shellWord(`${origin(publicUrl)}/v1/traces`)}`,
    `export OTEL_EXPORTER_OTLP_TRACES_HEADERS=${shellWord(`Authorization=${encodeURIComponent(`Bearer ${token}`)}`)}`,
    "export OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/protobuf",
  ].join("\n");
}

/** How the connect test runs a snippet: in a shell, as an MCP client's config, or as Claude Code's settings file. */
export type SnippetKind = "shell" | "mcp-json" | "claude-settings";
export type ConnectSnippet = { kind: SnippetKind; text: (s: SnippetInput) => string };
/**
 * Every way to connect the token panel shows, each as the snippets pasted in order on one machine in
 * one folder and shell. components/pod/connect-snippets.integration.test.ts runs them all.
 */
export const CONNECT_FORMS: Record<string, ConnectSnippet[]> = {
  cli: [
    { kind: "shell", text: kitInstallSnippet },
    { kind: "shell", text: shellSnippet },
  ],
  "claude-http": [
    { kind: "shell", text: claudeHttpEnvSnippet },
    { kind: "claude-settings", text: claudeHttpHooksSnippet },
  ],
  "claude-command": [{ kind: "shell", text: claudeCommandHooksSnippet }],
  "mcp-remote": [{ kind: "mcp-json", text: mcpRemoteSnippet }],
  "mcp-remote-command": [{ kind: "shell", text: mcpRemoteCommand }],
  "mcp-local": [
    { kind: "shell", text: kitInstallSnippet },
    { kind: "mcp-json", text: mcpSnippet },
  ],
  otel: [{ kind: "shell", text: otelSnippet }],
};

// What an agent needs to join, as text to paste: the CLI's shell environment
// and an MCP client's config, filled in with this server's URL and the token.
import { settingsWith, TOKEN_ENV } from "@/agent/hooks/settings-snippet";
import { ourHooks } from "@/agent/hooks/our-hooks";

export type SnippetInput = { publicUrl: string; podId: string; token: string };

/** A word the shell reads back exactly: bare when it is plainly safe, else single-quoted. */
export const shellWord = (s: string) =>
  /^[A-Za-z0-9_\-.:/@%+=,]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;

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
const origin = (publicUrl: string) => publicUrl.replace(/\/+$/, "");

/**
 * `.claude/settings.local.json` with podwatch's HTTP hooks: exactly what `podwatch hooks install
 * --http` merges, including the one command hook at the stops that reads token usage from the
 * transcript (an HTTP hook cannot).
 */
export function claudeHttpHooksSnippet({ publicUrl }: SnippetInput): string {
  return JSON.stringify(settingsWith(ourHooks("http", publicUrl)), null, 2);
}
/** What Claude Code's environment needs for the HTTP hooks: the token, read by `allowedEnvVars`. */
export const claudeHttpEnvSnippet = ({ token }: SnippetInput) => `export ${TOKEN_ENV}=${shellWord(token)}`;

/**
 * Command hooks: `podwatch hook` runs per hook (spools when podwatch is down); install merges them
 * into the settings. The `podwatch` command is the agent kit of this repository (README, "Agents join in
 * one line"); no package of that name on a registry is ours to run.
 */
export function claudeCommandHooksSnippet({ publicUrl, token }: SnippetInput): string {
  return `export PODWATCH_URL=${shellWord(origin(publicUrl))} ${TOKEN_ENV}=${shellWord(token)}\npodwatch hooks install --scope local`;
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

/** An OpenTelemetry SDK's OTLP/HTTP trace exporter, configured by the standard variables (headers are URL-encoded). */
export function otelSnippet({ publicUrl, token }: SnippetInput): string {
  return [
    `export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${shellWord(`${origin(publicUrl)}/v1/traces`)}`,
    `export OTEL_EXPORTER_OTLP_TRACES_HEADERS=${shellWord(`Authorization=${encodeURIComponent(`Bearer ${token}`)}`)}`,
  ].join("\n");
}

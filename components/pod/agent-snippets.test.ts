import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
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
  shellWord,
} from "./agent-snippets";

const input = {
  publicUrl: "http://127.0.0.1:3000",
  podId: "8d1f2c3e-0000-4000-8000-000000000001",
  token: "pwa_AbC-12_x",
};

describe("agent snippets", () => {
  it("the shell snippet sets the three variables the CLI reads", () => {
    expect(shellSnippet(input)).toBe(
      `export PODWATCH_URL=http://127.0.0.1:3000 PODWATCH_TOKEN=pwa_AbC-12_x PODWATCH_POD=${input.podId}`,
    );
  });

  it("a shell reads back exactly what was quoted", () => {
    for (const s of ["plain", "with space", "it's", "$(rm -rf /)", "a'b'c", "`x`", "semi;colon"]) {
      const echoed = execFileSync("sh", ["-c", `printf %s ${shellWord(s)}`], { encoding: "utf8" });
      expect(echoed).toBe(s);
    }
  });

  it("the MCP config is the README's shape with this pod's values", () => {
    expect(JSON.parse(mcpSnippet(input))).toEqual({
      mcpServers: {
        podwatch: {
          command: "podwatch",
          args: ["mcp"],
          env: { PODWATCH_URL: input.publicUrl, PODWATCH_TOKEN: input.token, PODWATCH_POD: input.podId },
        },
      },
    });
  });
});

describe("the snippets for real agents", () => {
  const http = { ...input, publicUrl: "https://pw.example.com/" };
  it("Claude Code's HTTP hooks post to this server's hook route with the token from the environment", () => {
    const settings = JSON.parse(claudeHttpHooksSnippet(http));
    expect(settings.hooks.PostToolUse[0]).toEqual({
      matcher: "*",
      hooks: [
        {
          type: "http",
          url: "https://pw.example.com/api/v1/hooks/claude-code",
          headers: { Authorization: "Bearer $PODWATCH_TOKEN" },
          allowedEnvVars: ["PODWATCH_TOKEN"],
          timeout: 10,
        },
      ],
    });
    expect(JSON.stringify(settings)).not.toContain(input.token); // the token stays in the environment, out of the file
    // An HTTP hook cannot read the transcript: one command hook at the stops reports token usage, as `podwatch hooks install --http` writes.
    expect(
      settings.hooks.Stop.flatMap((g: { hooks: { type: string; command?: string }[] }) => g.hooks),
    ).toContainEqual(expect.objectContaining({ type: "command", command: "podwatch hook --usage-only" }));
    // The usage hook is a command: it needs the kit and the server's URL as well as the token.
    expect(claudeHttpEnvSnippet(http)).toBe(
      "npm install -g https://pw.example.com/agent/podwatch.tgz   # once, on the agent's machine: the podwatch command\n" +
        "export PODWATCH_URL=https://pw.example.com PODWATCH_TOKEN=pwa_AbC-12_x",
    );
  });
  it("command hooks are installed by the CLI with the URL and token in the environment", () => {
    expect(claudeCommandHooksSnippet(http).split("\n")).toEqual([
      "npm install -g https://pw.example.com/agent/podwatch.tgz   # once, on the agent's machine: the podwatch command",
      "export PODWATCH_URL=https://pw.example.com PODWATCH_TOKEN=pwa_AbC-12_x",
      "podwatch hooks install --scope local   # in the project's folder; then start claude from this shell",
    ]);
    // No package of a registry is named: the kit comes from this server only.
    for (const text of [claudeCommandHooksSnippet(http), claudeHttpEnvSnippet(http), kitInstallSnippet(http)])
      expect(text).not.toMatch(/\bnpx\b|npm install -g (?!https:\/\/pw\.example\.com\/agent\/)/);
  });
  it("remote MCP is a URL with the token as bearer, as JSON and as claude mcp add", () => {
    expect(JSON.parse(mcpRemoteSnippet(http))).toEqual({
      mcpServers: {
        podwatch: {
          type: "http",
          url: "https://pw.example.com/mcp",
          headers: { Authorization: "Bearer pwa_AbC-12_x" },
        },
      },
    });
    const argv = execFileSync("sh", ["-c", `set -- ${mcpRemoteCommand(http)}; printf '%s\\n' "$@"`], {
      encoding: "utf8",
    })
      .trim()
      .split("\n");
    expect(argv).toEqual([
      "claude",
      "mcp",
      "add",
      "--transport",
      "http",
      "podwatch",
      "https://pw.example.com/mcp",
      "--header",
      "Authorization: Bearer pwa_AbC-12_x",
    ]);
  });
  it("OpenTelemetry's exporter variables point at /v1/traces with the encoded bearer header", () => {
    const env = execFileSync(
      "sh",
      [
        "-c",
        `${otelSnippet(http)}; printf '%s\\n%s\\n%s' "$OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" "$OTEL_EXPORTER_OTLP_TRACES_HEADERS" "$OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"`,
      ],
      { encoding: "utf8" },
    );
    expect(env).toBe("https://pw.example.com/v1/traces\nAuthorization=Bearer%20pwa_AbC-12_x\nhttp/protobuf");
  });
});

// The real Claude Code CLI (a dev dependency) exports its own telemetry to a real podwatch server:
// run offline against a scripted fake of the Anthropic Messages API on 127.0.0.1, with the
// environment the README's "Logs and metrics" gives (http/protobuf), its session, prompt, a Bash
// call and usage (with its own cost figures) land on the tape as the agent's.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProviders } from "../testing/test-databases";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { eventually } from "../testing/eventually";
import type { TapeEvent } from "../wire/events";

const CLAUDE = path.join(process.cwd(), "node_modules", ".bin", "claude");

/** The Messages API as Claude Code streams it: a Bash call first, then, once its result is back, an answer. */
function fakeMessages(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (!req.url?.startsWith("/v1/messages")) return void res.writeHead(404).end("{}");
      const model = (JSON.parse(body || "{}") as { model?: string }).model ?? "claude-opus-5-5";
      const toolRan = body.includes('"tool_result"');
      const send = (type: string, data: object) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      res.writeHead(200, { "content-type": "text/event-stream" });
      const usage = {
        input_tokens: 12,
        output_tokens: 1,
        cache_read_input_tokens: 1500,
        cache_creation_input_tokens: 300,
      };
      send("message_start", {
        message: {
          id: "msg_1",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          usage,
        },
      });
      if (toolRan) {
        send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
        send("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hi." } });
      } else {
        const input = JSON.stringify({ command: "echo podwatch-otel", description: "Say it" });
        send("content_block_start", {
          index: 0,
          content_block: { type: "tool_use", id: "toolu_01Otel", name: "Bash", input: {} },
        });
        send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: input } });
      }
      send("content_block_stop", { index: 0 });
      send("message_delta", {
        delta: { stop_reason: toolRan ? "end_turn" : "tool_use" },
        usage: { output_tokens: 5 },
      });
      send("message_stop", {});
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}` });
    }),
  );
}

function runClaude(
  home: string,
  work: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      CLAUDE,
      ["-p", "say hi", "--output-format", "json", "--permission-mode", "bypassPermissions"],
      {
        cwd: work,
        env: {
          NODE_ENV: "test",
          PATH: process.env.PATH!,
          HOME: home,
          IS_SANDBOX: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_ERROR_REPORTING: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          ...env,
        },
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.each(testProviders())("the real Claude Code CLI's telemetry into podwatch (%s)", (provider) => {
  let s: TestServer;
  let fake: { server: Server; url: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await fakeMessages();
  });
  afterAll(async () => {
    fake?.server.close();
    await s?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("its session, prompt, Bash call and usage with its own cost land as the agent's, over protobuf", async () => {
    const pod = await agentPod(s.url, "claude-otel", { claude: "implementer" });
    const home = mkdtempSync(path.join(tmpdir(), "podwatch-claude-otel-"));
    dirs.push(home);
    const work = path.join(home, "work");
    mkdirSync(work);
    const run = await runClaude(home, work, {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-test",
      CLAUDE_CODE_ENABLE_TELEMETRY: "1",
      OTEL_LOGS_EXPORTER: "otlp",
      OTEL_METRICS_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
      OTEL_EXPORTER_OTLP_ENDPOINT: s.url,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${pod.tokens.claude}`,
      OTEL_LOG_USER_PROMPTS: "1",
      OTEL_LOG_TOOL_DETAILS: "1",
    });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.out) as { session_id: string; total_cost_usd: number };

    const tape = () =>
      api<{ events: TapeEvent[] }>(s.url, "GET", `/api/v1/pods/${pod.podId}/events?after=0&limit=1000`).then(
        (r) => r.body.events.filter((e) => e.actor === "claude"),
      );
    const events = await eventually(
      tape,
      (es) =>
        es.filter((e) => e.type === "usage.reported").length === 2 && es.some((e) => e.type === "tool.call"),
      "the usage of both requests and the tool call",
    );
    const of = (type: string) =>
      events.filter((e) => e.type === type).map((e) => e.body as Record<string, unknown>);
    expect(of("session.started")).toEqual([{ via: "claude-code" }]);
    expect(of("prompt.submitted")).toEqual([{ chars: 6, text: "say hi" }]);
    const calls = of("tool.call");
    expect(calls.map((c) => [c.toolUseId, c.tool, c.phase])).toEqual([
      ["toolu_01Otel", "Bash", "started"],
      ["toolu_01Otel", "Bash", "succeeded"],
    ]);
    // Its input, as OTEL_LOG_TOOL_DETAILS has it sent.
    expect(calls[0]!.input).toBe('{"command":"echo podwatch-otel","description":"Say it"}');
    const [usage, second] = of("usage.reported");
    expect(usage).toMatchObject({
      source: "otel",
      inputTokens: 12,
      outputTokens: 5,
      cacheReadTokens: 1500,
      cacheWriteTokens: 300,
    });
    // The agent's own figures, which add up to the one it reported for the run.
    expect((usage!.costUsd as number) + (second!.costUsd as number)).toBeCloseTo(result.total_cost_usd, 9);
    expect(events.every((e) => e.meta?.sessionId === result.session_id)).toBe(true);
  }, 90_000);
});

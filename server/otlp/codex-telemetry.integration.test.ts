// The real Codex CLI (a dev dependency) exports its own telemetry (its config's [otel], OTLP/HTTP
// protobuf, written by Rust's OpenTelemetry SDK) to a real podwatch server: run offline against a
// scripted fake of the OpenAI Responses API on 127.0.0.1, with the [otel] the README gives, its
// conversation, prompt and usage land on the tape as the agent's.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProviders } from "../testing/test-databases";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { eventually } from "../testing/eventually";
import type { TapeEvent } from "../wire/events";

const CODEX = path.join(process.cwd(), "node_modules", ".bin", "codex");

/** The Responses API as Codex streams it: one message, and the response's usage. */
function fakeResponses(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (!req.url?.endsWith("/responses")) return void res.writeHead(404).end();
      const ev = (type: string, data: object) =>
        `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      const msg = {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Hi.", annotations: [] }],
      };
      const usage = {
        input_tokens: 900,
        input_tokens_details: { cached_tokens: 800 },
        output_tokens: 12,
        output_tokens_details: { reasoning_tokens: 4 },
        total_tokens: 912,
      };
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(ev("response.created", { response: { id: "resp_1", status: "in_progress", output: [] } }));
      res.write(ev("response.output_item.done", { output_index: 0, item: msg }));
      res.end(
        ev("response.completed", { response: { id: "resp_1", status: "completed", output: [msg], usage } }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}` });
    }),
  );
}

function runCodex(home: string, work: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(CODEX, ["exec", "--skip-git-repo-check", "--json", "say hi"], {
      cwd: work,
      env: {
        NODE_ENV: "test",
        PATH: process.env.PATH!,
        HOME: home,
        CODEX_HOME: home,
        FAKE_MODEL_KEY: "test-key",
      },
      stdio: "ignore",
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe.each(testProviders())("the real Codex CLI's telemetry into podwatch (%s)", (provider) => {
  let s: TestServer;
  let fake: { server: Server; url: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await fakeResponses();
  });
  afterAll(async () => {
    fake?.server.close();
    await s?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("its conversation, prompt and usage land as the agent's, over protobuf", async () => {
    const pod = await agentPod(s.url, "codex-otel", { codex: "implementer" });
    const home = mkdtempSync(path.join(tmpdir(), "podwatch-codex-otel-"));
    dirs.push(home);
    const work = path.join(home, "work");
    mkdirSync(work);
    const config = [
      'model = "gpt-5.2-codex"',
      'model_provider = "fake"',
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${fake.url}/v1"`,
      'env_key = "FAKE_MODEL_KEY"',
      'wire_api = "responses"',
      "[otel]",
      "log_user_prompt = true",
      `exporter = { otlp-http = { endpoint = "${s.url}/v1/logs", protocol = "binary", headers = { "Authorization" = "Bearer ${pod.tokens.codex}" } } }`,
    ];
    writeFileSync(path.join(home, "config.toml"), config.join("\n") + "\n");
    expect(await runCodex(home, work)).toBe(0);

    const tape = () =>
      api<{ events: TapeEvent[] }>(s.url, "GET", `/api/v1/pods/${pod.podId}/events?after=0&limit=1000`).then(
        (r) => r.body.events.filter((e) => e.actor === "codex"),
      );
    const events = await eventually(tape, (es) => es.some((e) => e.type === "usage.reported"), "the usage");
    const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.body);
    expect(of("session.started")).toEqual([{ via: "codex", model: "gpt-5.2-codex" }]);
    expect(of("prompt.submitted")).toEqual([{ chars: 6, text: "say hi" }]);
    expect(of("usage.reported")).toEqual([
      {
        model: "gpt-5.2-codex",
        source: "otel",
        inputTokens: 100,
        outputTokens: 12,
        cacheReadTokens: 800,
        cacheWriteTokens: 0,
      },
    ]);
    const session = events[0]!.meta?.sessionId;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(events.every((e) => e.meta?.sessionId === session)).toBe(true);
  }, 90_000);
});

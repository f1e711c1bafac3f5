// The real Gemini CLI (a dev dependency) exports its own telemetry to a real podwatch server: run
// offline against a scripted fake of the Gemini API on 127.0.0.1 (one shell call, then an answer),
// with the settings and the token the README's "Logs and metrics" gives, its session, prompt, tool
// call and usage land on the tape as the agent's, and names podwatch does not map are counted.
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

const GEMINI = path.join(process.cwd(), "node_modules", ".bin", "gemini");
const usage = {
  promptTokenCount: 120,
  candidatesTokenCount: 7,
  totalTokenCount: 127,
  cachedContentTokenCount: 100,
};

/** The Gemini API as the CLI streams it: a shell call first, then, once its result comes back, an answer. */
function fakeGemini(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (!req.url?.includes(":streamGenerateContent")) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({ totalTokens: 5, candidates: [{ content: { parts: [{ text: "{}" }] } }] }),
        );
      }
      const toolRan = body.includes('"functionResponse"');
      const part = toolRan
        ? { text: "Done." }
        : {
            functionCall: {
              name: "run_shell_command",
              args: { command: "echo podwatch-otel", description: "Say it" },
            },
          };
      const chunk = {
        candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP" }],
        usageMetadata: usage,
      };
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}` });
    }),
  );
}

/** One headless run in a private home; resolves with its exit code (killed past a minute). */
function runGemini(home: string, work: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(
      GEMINI,
      ["-p", "say it", "--approval-mode", "yolo", "--skip-trust", "-o", "stream-json"],
      {
        cwd: work,
        env: { NODE_ENV: "test", PATH: process.env.PATH!, HOME: home, GEMINI_CLI_HOME: home, ...env },
        stdio: "ignore",
      },
    );
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe.each(testProviders())("the real Gemini CLI's telemetry into podwatch (%s)", (provider) => {
  let s: TestServer;
  let fake: { server: Server; url: string };
  const dirs: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(provider);
    fake = await fakeGemini();
  });
  afterAll(async () => {
    fake?.server.close();
    await s?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("its session, prompt, shell call and usage land as the agent's; its other names are counted", async () => {
    const pod = await agentPod(s.url, "gemini-otel", { gemini: "implementer" });
    const home = mkdtempSync(path.join(tmpdir(), "podwatch-gemini-otel-"));
    dirs.push(home);
    const work = path.join(home, "work");
    mkdirSync(path.join(home, ".gemini"), { recursive: true });
    mkdirSync(work);
    const settings = {
      security: { auth: { selectedType: "gemini-api-key" } },
      model: { name: "gemini-2.5-pro" },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true },
      telemetry: {
        enabled: true,
        target: "local",
        otlpEndpoint: s.url,
        otlpProtocol: "http",
        logPrompts: true,
      },
    };
    writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify(settings));
    const code = await runGemini(home, work, {
      GEMINI_API_KEY: "test-key",
      GOOGLE_GEMINI_BASE_URL: fake.url,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer ${pod.tokens.gemini}`,
    });
    expect(code).toBe(0);

    const tape = () =>
      api<{ events: TapeEvent[] }>(s.url, "GET", `/api/v1/pods/${pod.podId}/events?after=0&limit=1000`).then(
        (r) => r.body.events.filter((e) => e.actor === "gemini"),
      );
    const events = await eventually(tape, (es) => es.some((e) => e.type === "usage.reported"), "the usage");
    const of = (type: string) =>
      events.filter((e) => e.type === type).map((e) => e.body as Record<string, unknown>);
    expect(of("session.started")).toEqual([{ via: "gemini-cli", model: "gemini-2.5-pro" }]);
    expect(of("prompt.submitted")).toEqual([{ chars: 6, text: "say it" }]);
    const calls = of("tool.call");
    expect(calls.map((c) => [c.tool, c.phase])).toEqual([
      ["run_shell_command", "started"],
      ["run_shell_command", "succeeded"],
    ]);
    expect(String(calls[0]!.input)).toContain("echo podwatch-otel");
    expect(of("usage.reported")[0]).toEqual({
      model: "gemini-2.5-pro",
      source: "otel",
      inputTokens: 20,
      outputTokens: 7,
      cacheReadTokens: 100,
      cacheWriteTokens: 0,
    });
    const session = events[0]!.meta?.sessionId;
    expect(session).toBeTruthy();
    expect(events.every((e) => e.meta?.sessionId === session)).toBe(true);

    const unmapped = await api<{ total: number; names: { name: string }[] }>(
      s.url,
      "GET",
      `/api/v1/pods/${pod.podId}/otlp/unmapped`,
    );
    expect(unmapped.body.total).toBeGreaterThan(0);
    expect(unmapped.body.names.map((n) => n.name)).toContain("gemini_cli.startup_stats");
  }, 90_000);
});

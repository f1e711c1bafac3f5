// The agents' own telemetry, recorded in each one's documented schema (fixtures/), read through the
// OTLP/JSON codecs and mapped: the same sessions, prompts, tool calls, refusals and usage their
// hooks make, with the agent's own cost where it sends one, and every name it does not know returned.
import { describe, expect, it } from "vitest";
import { decodeLogsJson } from "./otlp-logs-codec";
import { decodeMetricsJson } from "./otlp-metrics-codec";
import { readLogRecords, readMetricPoints } from "./agent-records";
import { mapAgentRecords } from "./agent-telemetry";
import { loadFixture, logsRequestJson, metricsRequestJson } from "../testing/agent-telemetry-fixtures";
import type { TEventInput } from "../wire/events";

const ctx = { podId: "pod1", actor: "coder", recordPrompts: true };
const logsOf = (agent: "claude-code" | "codex" | "gemini-cli", c = ctx) =>
  mapAgentRecords(readLogRecords(decodeLogsJson(logsRequestJson(loadFixture(agent)))), c);
const metricsOf = (agent: "claude-code" | "codex" | "gemini-cli") =>
  mapAgentRecords(readMetricPoints(decodeMetricsJson(metricsRequestJson(loadFixture(agent)))), ctx);
const events = (m: { mapped: { events: TEventInput[] }[] }) => {
  // As the door stores them: one event per id.
  const seen = new Set<string>();
  return m.mapped.flatMap((r) => r.events).filter((e) => !seen.has(e.id!) && seen.add(e.id!));
};
const ofType = (es: TEventInput[], type: string) => es.filter((e) => e.type === type).map((e) => e.body);

describe("Claude Code's telemetry", () => {
  const mapping = logsOf("claude-code");
  const es = events(mapping);

  it("opens its session once, as claude-code, from the first record", () => {
    const started = es.filter((e) => e.type === "session.started");
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({
      sessionId: "5f1c9a52-8d0e-4a8f-9b36-3c1d2e4f5a60",
      actor: "coder",
      ts: "2026-11-25T10:00:00.000Z",
      body: { via: "claude-code" },
    });
    expect(es.every((e) => e.sessionId === "5f1c9a52-8d0e-4a8f-9b36-3c1d2e4f5a60")).toBe(true);
  });

  it("the prompt, with its text only when the pod keeps prompts", () => {
    expect(ofType(es, "prompt.submitted")).toEqual([{ chars: 22, text: "list the files, please" }]);
    expect(
      ofType(events(logsOf("claude-code", { ...ctx, recordPrompts: false })), "prompt.submitted"),
    ).toEqual([{ chars: 22 }]);
  });

  it("usage with the agent's own cost, cache reads and writes apart", () => {
    expect(ofType(es, "usage.reported")).toEqual([
      {
        model: "claude-opus-5-5",
        source: "otel",
        inputTokens: 12,
        outputTokens: 80,
        cacheReadTokens: 1500,
        cacheWriteTokens: 300,
        costUsd: 0.0421,
      },
    ]);
  });

  it("a tool call, pre and post joined by its tool_use_id; a refused one failed by its refusal (a gate is podwatch's alone)", () => {
    const calls = es.filter((e) => e.type === "tool.call");
    expect(calls.map((e) => e.body)).toEqual([
      {
        toolUseId: "toolu_01Ls",
        tool: "Bash",
        phase: "started",
        input: '{"bash_command":"ls","full_command":"ls -la","description":"List files"}',
      },
      { toolUseId: "toolu_01Ls", tool: "Bash", phase: "succeeded", durationMs: 35 },
      { toolUseId: "toolu_02Rm", tool: "Bash", phase: "started" },
      {
        toolUseId: "toolu_02Rm",
        tool: "Bash",
        phase: "failed",
        error: "refused by the user: rejected (user_reject)",
      },
    ]);
    // The start is dated its end less its duration.
    expect(calls[0]!.ts).toBe("2026-11-25T10:00:02.165Z");
  });

  it("returns what it does not know, and maps the same records to the same ids", () => {
    expect(mapping.unmapped.map((r) => r.name)).toEqual(["claude_code.hook_execution_start"]);
    expect(events(logsOf("claude-code")).map((e) => e.id)).toEqual(es.map((e) => e.id));
    expect(new Set(es.map((e) => e.id)).size).toBe(es.length);
  });

  it("metrics: the session's count opens it; token and cost metrics are known (usage is the log's); others unmapped", () => {
    const m = metricsOf("claude-code");
    expect(events(m).map((e) => [e.type, e.body])).toEqual([["session.started", { via: "claude-code" }]]);
    expect(events(m)[0]!.id).toBe(es[0]!.id);
    expect(m.unmapped.map((r) => r.name)).toEqual(["claude_code.lines_of_code.count"]);
  });
});

describe("Codex's telemetry", () => {
  const mapping = logsOf("codex");
  const es = events(mapping);

  it("its conversation is the session, started as codex with its model", () => {
    expect(ofType(es, "session.started")).toEqual([{ via: "codex", model: "gpt-5.2-codex" }]);
    expect(es.every((e) => e.sessionId === "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")).toBe(true);
    expect(ofType(es, "prompt.submitted")).toEqual([{ chars: 9, text: "run tests" }]);
  });

  it("tool calls joined by call_id, the denied one refused; usage from response.completed with cached input apart", () => {
    expect(ofType(es, "tool.call")).toEqual([
      { toolUseId: "call_7Ab", tool: "shell", phase: "started", input: '{"command":["npm","test"]}' },
      { toolUseId: "call_7Ab", tool: "shell", phase: "succeeded", output: "12 passed", durationMs: 380 },
      { toolUseId: "call_8Cd", tool: "shell", phase: "started" },
      { toolUseId: "call_8Cd", tool: "shell", phase: "failed", error: "refused by the user: denied (user)" },
    ]);
    expect(ofType(es, "usage.reported")).toEqual([
      {
        model: "gpt-5.2-codex",
        source: "otel",
        inputTokens: 100,
        outputTokens: 120,
        cacheReadTokens: 800,
        cacheWriteTokens: 0,
      },
    ]);
    expect(mapping.unmapped.map((r) => r.name)).toEqual(["codex.websocket_request"]);
  });
});

describe("Gemini CLI's telemetry", () => {
  const mapping = logsOf("gemini-cli");
  const es = events(mapping);

  it("its config opens the session with its model; conversation_finished ends it", () => {
    expect(es[0]).toMatchObject({
      type: "session.started",
      body: { via: "gemini-cli", model: "gemini-2.5-pro" },
    });
    expect(ofType(es, "session.ended")).toEqual([{ reason: "finished" }]);
    expect(ofType(es, "prompt.submitted")).toEqual([{ chars: 13, text: "show git logs" }]);
  });

  it("tool calls pre and post, the rejected one refused; usage with cached input apart and thoughts as output", () => {
    const calls = ofType(es, "tool.call") as Record<string, unknown>[];
    expect(calls.map((c) => [c.tool, c.phase])).toEqual([
      ["run_shell_command", "started"],
      ["run_shell_command", "succeeded"],
      ["run_shell_command", "started"],
      ["run_shell_command", "failed"],
    ]);
    expect(calls[0]!.toolUseId).toBe(calls[1]!.toolUseId);
    expect(calls[2]!.toolUseId).not.toBe(calls[0]!.toolUseId);
    expect(calls[0]).toMatchObject({ input: '{"command":"git log --oneline","description":"Show the log"}' });
    expect(calls[1]).toMatchObject({ durationMs: 30 });
    expect(calls[2]).not.toHaveProperty("gate");
    expect(calls[3]).toMatchObject({ error: "refused by the user: the user rejected the call" });
    expect(ofType(es, "usage.reported")).toEqual([
      {
        model: "gemini-2.5-pro",
        source: "otel",
        inputTokens: 200,
        outputTokens: 60,
        cacheReadTokens: 1000,
        cacheWriteTokens: 0,
      },
    ]);
    expect(mapping.unmapped.map((r) => r.name)).toEqual(["gemini_cli.slash_command"]);
  });

  it("metrics: the session's count and token usage are known and open no session (its config does); the tool count is unmapped", () => {
    const m = metricsOf("gemini-cli");
    // Exported apart from the logs, they may arrive first: a session they opened would keep no model.
    expect(events(m)).toEqual([]);
    expect(m.unmapped.map((r) => r.name)).toEqual(["gemini_cli.tool.call.count"]);
  });
});

describe("records of no agent podwatch knows", () => {
  it("are unmapped, named by event.name, the body, or a placeholder", () => {
    const request = {
      resourceLogs: [
        {
          scopeLogs: [
            {
              logRecords: [
                { attributes: [{ key: "event.name", value: { stringValue: "aider.commit" } }] },
                { body: { stringValue: "plain text log line" } },
                { body: { kvlistValue: { values: [] } } },
              ],
            },
          ],
        },
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "gemini-cli" } }] },
          scopeLogs: [
            {
              logRecords: [
                {
                  attributes: [
                    {
                      key: "event.name",
                      value: { stringValue: "gen_ai.client.inference.operation.details" },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
    const m = mapAgentRecords(readLogRecords(decodeLogsJson(request)), ctx);
    expect(m.mapped).toEqual([]);
    expect(m.unmapped.map((r) => r.name)).toEqual([
      "aider.commit",
      "plain text log line",
      "(unnamed log record)",
      // Another convention's dotted name from a known agent is not taken for one of the agent's own.
      "gen_ai.client.inference.operation.details",
    ]);
  });
});

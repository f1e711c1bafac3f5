// Claude Code's hooks, as an agent feels them: how long one HTTP hook takes (an
// observation, and a PreToolUse the tool policy evaluates), how long the whole `podwatch hook`
// command takes (node start included), and tool calls (PreToolUse + PostToolUse) offered at
// 2,000 calls/s by 32 sessions: the rate kept and the latency under it. 127.0.0.1 only, bounded.
import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import { PODWATCH_BIN } from "../server/testing/run-cli";
import { CLIENTS, pct, post } from "./http";

const LATENCY_SAMPLES = 1000;
const COMMAND_RUNS = 21;
const OFFERED_CALLS_PER_SECOND = 2000;
const OFFERED_SECONDS = 5;

type Pod = { podId: string; token: string };
export const HOOK = "/api/v1/hooks/claude-code";

const common = (session: string) => ({
  session_id: session,
  transcript_path: `/tmp/bench/${session}.jsonl`,
  cwd: "/work/app",
  permission_mode: "default",
});
export const pre = (session: string, id: string, i: number) => ({
  ...common(session),
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: `npm test -- --shard ${i}`, description: "Run the tests" },
  tool_use_id: id,
});
export const postUse = (session: string, id: string, i: number) => ({
  ...common(session),
  hook_event_name: "PostToolUse",
  tool_name: "Bash",
  tool_input: { command: `npm test -- --shard ${i}` },
  tool_response: { stdout: `shard ${i}: 42 passed`, stderr: "", interrupted: false },
  tool_use_id: id,
});

async function hook(base: string, token: string, payload: object): Promise<void> {
  const r = await post(`${base}${HOOK}`, JSON.stringify(payload), token);
  if (r.status !== 200)
    throw new Error(
      `hook ${(payload as { hook_event_name: string }).hook_event_name} → ${r.status} ${r.text}`,
    );
}

async function timed(n: number, one: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await one(i);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** A policy to evaluate on every PreToolUse (none of its rules matches the bench's commands). */
export async function setBenchPolicy(base: string, podId: string): Promise<void> {
  const policy = {
    type: "agent.policy.set",
    actor: "bench-admin",
    body: {
      rules: [
        { id: "push", tool: "Bash", input: "git push*|rm -rf*", action: "ask" },
        { id: "mcp", tool: "mcp__*", action: "deny" },
      ],
    },
  };
  const set = await post(`${base}/api/v1/pods/${podId}/events`, JSON.stringify(policy));
  if (set.status !== 201) throw new Error(`policy → ${set.status} ${set.text}`);
}

export async function benchAgentHooks(base: string, pod: Pod): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  await setBenchPolicy(base, pod.podId);

  const session = randomUUID();
  await hook(base, pod.token, {
    ...common(session),
    hook_event_name: "SessionStart",
    source: "startup",
    model: "claude-sonnet-4-5",
  });
  const observe = await timed(LATENCY_SAMPLES, (i) =>
    hook(base, pod.token, postUse(session, `toolu_obs_${i}`, i)),
  );
  rows.push([
    "HTTP hook, PostToolUse (an observation), p50 / p99",
    `${pct(observe, 50).toFixed(2)} / ${pct(observe, 99).toFixed(2)} ms`,
  ]);
  const gate = await timed(LATENCY_SAMPLES, (i) => hook(base, pod.token, pre(session, `toolu_pre_${i}`, i)));
  rows.push([
    "HTTP hook, PreToolUse (policy evaluated, allowed), p50 / p99",
    `${pct(gate, 50).toFixed(2)} / ${pct(gate, 99).toFixed(2)} ms`,
  ]);

  const env = { PODWATCH_URL: base, PODWATCH_TOKEN: pod.token };
  const command = await timed(COMMAND_RUNS, async (i) => {
    const code = await runHookCommand(env, JSON.stringify(postUse(session, `toolu_cmd_${i}`, i)));
    if (code !== 0) throw new Error(`podwatch hook → exit ${code}`);
  });
  rows.push([
    "`podwatch hook` (command hook, node start included), p50",
    `${pct(command, 50).toFixed(0)} ms`,
  ]);
  // What this machine's node takes to start and exit doing nothing: the floor under the figure above.
  const bare = await timed(
    COMMAND_RUNS,
    () =>
      new Promise<void>((resolve) =>
        spawn(process.execPath, ["-e", "0"], { stdio: "ignore" }).on("close", () => resolve()),
      ),
  );
  rows.push(["  node itself starting and exiting (node -e 0), p50", `${pct(bare, 50).toFixed(0)} ms`]);

  rows.push(...(await offeredLoad(base, pod.token)));
  rows.push(await otlpToolCalls(base, pod.token));
  return rows;
}

const OTLP_EXPORTS = 40;
const SPANS_PER_EXPORT = 500;
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** Tool calls as an OpenTelemetry exporter sends them: batches of execute_tool spans (OTLP/HTTP JSON), one export after another (a token's exports run one at a time). */
async function otlpToolCalls(base: string, token: string): Promise<[string, string]> {
  const now = BigInt(Date.now()) * 1_000_000n;
  const bodies = Array.from({ length: OTLP_EXPORTS }, (_, x) =>
    JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [attr("service.name", "bench-agent")] },
          scopeSpans: [
            {
              scope: { name: "bench" },
              spans: Array.from({ length: SPANS_PER_EXPORT }, (_, i) => ({
                traceId: hex(x + 1, 32),
                spanId: hex(x * SPANS_PER_EXPORT + i + 1, 16),
                name: "execute_tool Bash",
                kind: 1,
                startTimeUnixNano: String(now),
                endTimeUnixNano: String(now + 5_000_000n),
                attributes: [
                  attr("gen_ai.operation.name", "execute_tool"),
                  attr("gen_ai.tool.name", "Bash"),
                  attr("gen_ai.tool.call.id", `call_${x}_${i}`),
                  attr("gen_ai.conversation.id", `bench-${x % 4}`),
                  attr("gen_ai.tool.call.arguments", JSON.stringify({ command: `npm test -- --shard ${i}` })),
                ],
                status: {},
              })),
            },
          ],
        },
      ],
    }),
  );
  const t = performance.now();
  for (const body of bodies) {
    const r = await post(`${base}/v1/traces`, body, token);
    if (r.status !== 200 || r.text.includes("rejected"))
      throw new Error(`/v1/traces → ${r.status} ${r.text}`);
  }
  const rate = (OTLP_EXPORTS * SPANS_PER_EXPORT) / ((performance.now() - t) / 1000);
  return [
    `tool calls as OTLP execute_tool spans (${SPANS_PER_EXPORT} per export, one exporter)`,
    `${Math.round(rate).toLocaleString("en")} calls/s`,
  ];
}

/** `podwatch hook` as Claude Code runs it: the hook's JSON on stdin, the answer on stdout. */
function runHookCommand(env: Record<string, string>, stdin: string): Promise<number> {
  const child = spawn(process.execPath, [PODWATCH_BIN, "hook"], {
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ["pipe", "ignore", "inherit"],
  });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? -1)));
}

/**
 * Open loop: calls start on a fixed schedule whatever the server's pace (a closed loop would slow
 * down with it and hide a backlog); each call is its PreToolUse then its PostToolUse, spread over
 * 32 sessions. At most 4 × CLIENTS calls are under way: past that the generator falls behind,
 * which the "kept" figure shows.
 */
async function offeredLoad(base: string, token: string): Promise<[string, string][]> {
  const total = OFFERED_CALLS_PER_SECOND * OFFERED_SECONDS;
  const sessions = Array.from({ length: CLIENTS }, () => randomUUID());
  const latencies: number[] = [];
  let inFlight = 0;
  let started = 0;
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    let done = 0;
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * OFFERED_CALLS_PER_SECOND));
      while (started < due && inFlight < 4 * CLIENTS) {
        const i = started++;
        const session = sessions[i % CLIENTS]!;
        const id = `toolu_load_${i}`;
        inFlight++;
        const t = performance.now();
        hook(base, token, pre(session, id, i))
          .then(() => hook(base, token, postUse(session, id, i)))
          .then(() => {
            latencies.push(performance.now() - t);
            inFlight--;
            if (++done === total) resolve();
          }, reject);
      }
      if (started < total) setTimeout(tick, 1);
    };
    tick();
  });
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return [
    [
      `tool calls offered at ${OFFERED_CALLS_PER_SECOND.toLocaleString("en")}/s (Pre + Post hooks, ${CLIENTS} sessions), kept`,
      `${Math.round(total / seconds).toLocaleString("en")} calls/s (${((2 * total) / seconds).toFixed(0)} hook requests/s)`,
    ],
    [
      "  one tool call's two hooks under that load, p50 / p99",
      `${pct(latencies, 50).toFixed(1)} / ${pct(latencies, 99).toFixed(1)} ms`,
    ],
  ];
}

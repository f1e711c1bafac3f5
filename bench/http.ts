// The benchmarks' one request helper: a keep-alive agent to 127.0.0.1, the
// admin token by default, and the pod every run starts from.
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { performance } from "node:perf_hooks";
import { sleep } from "../server/testing/eventually";
import { SPAWN_ADMIN_TOKEN } from "../server/testing/spawn-server";

export const CLIENTS = 32;
export const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

/** One request on the keep-alive agent: a POST when there is a body, else a GET. */
export function call(
  url: string,
  body?: string,
  token = SPAWN_ADMIN_TOKEN,
): Promise<{ status: number; text: string }> {
  const headers = {
    authorization: `Bearer ${token}`,
    ...(body === undefined
      ? {}
      : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: body === undefined ? "GET" : "POST", agent, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
export const post = (url: string, body: string, token?: string) => call(url, body, token);
export const get = (url: string) => call(url);

export const note = (i: number) => ({
  id: randomUUID(),
  type: "note",
  actor: "bench-agent",
  role: "implementer",
  body: { kind: "OBSERVATION", text: `benchmark observation number ${i}: the build is green` },
});

/** A pod with one agent member; returns the pod and that agent's token (what real agents post with). */
export async function createPod(base: string, name: string): Promise<{ podId: string; token: string }> {
  const podId = (
    JSON.parse((await post(`${base}/api/v1/pods`, JSON.stringify({ name, mode: "collaboration" }))).text) as {
      id: string;
    }
  ).id;
  await post(
    `${base}/api/v1/pods/${podId}/members`,
    JSON.stringify({ memberId: "bench-agent", kind: "agent", displayName: "Bench", roles: ["implementer"] }),
  );
  const { token } = JSON.parse(
    (await post(`${base}/api/v1/pods/${podId}/members/bench-agent/tokens`, "{}")).text,
  ) as { token: string };
  return { podId, token };
}

export function pct(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `work` with /healthz asked every 10 ms meanwhile; each answer's latency is added to `latencies`. */
export async function whileProbingHealthz<T>(base: string, work: () => Promise<T>, latencies: number[] = []) {
  let done = false;
  const probe = (async () => {
    while (!done) {
      const t = performance.now();
      await get(`${base}/healthz`);
      latencies.push(performance.now() - t);
      await sleep(10);
    }
  })();
  try {
    return { value: await work(), latencies };
  } finally {
    done = true;
    await probe;
  }
}

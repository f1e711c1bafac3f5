import { readConfig } from "../config";
import { startServer, type RunningServer, type StartOptions } from "../start-server";
import { createTestDatabase, type Provider, type TestDatabase } from "./test-databases";
import { knobsFromEnv } from "./test-knobs";

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";

export type TestServer = RunningServer & { db: TestDatabase; stop: () => Promise<void> };

/** The real server (agent API + sockets, no web UI) on a fresh database and a free port. */
export async function startTestServer(
  provider: Provider,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const db = await createTestDatabase(provider);
  const server = await startServerOn(db, env);
  return { ...server, db, stop: async () => (await server.close(), await db.drop()) };
}

/**
 * The real server on a database the test keeps (to stop and start again on the same data). `env` is its
 * configuration, and may also set test knobs by their names (test-knobs.ts), which go to startServer's options.
 */
export function startServerOn(
  db: TestDatabase,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const { knobs, env: rest } = knobsFromEnv(env);
  const config = readConfig({
    DATABASE_URL: db.url,
    PORT: "0",
    HOST: "127.0.0.1",
    PODWATCH_DEMO: "0",
    PODWATCH_WEB: "0",
    PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    PODWATCH_AUTH_SECRET: "x".repeat(32),
    ...rest,
  });
  return startServer(config, { ...options, knobs: { ...knobs, ...options.knobs } });
}

/** Calls the API; authenticates as the admin token unless `auth` says otherwise (a token, a cookie, or null for none). */
export async function api<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  auth: { token?: string; cookie?: string } | null = { token: TEST_ADMIN_TOKEN },
): Promise<{ status: number; body: T; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (auth?.token) headers.authorization = `Bearer ${auth.token}`;
  if (auth?.cookie) {
    headers.cookie = auth.cookie;
    headers.origin = base; // as a browser on our own pages would send it
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  // A door of other bytes (the agent kit's tarball) answers them as they are; every other answer is JSON.
  const json = !/^application\/(gzip|octet-stream)/.test(res.headers.get("content-type") ?? "");
  return {
    status: res.status,
    body: (text && json ? JSON.parse(text) : text || null) as T,
    headers: res.headers,
  };
}

/** A pod with agent members (memberId → role), each with its own token, created through the API as the admin. */
export async function agentPod(
  base: string,
  name: string,
  agents: Record<string, string>,
  admin: { token: string } = { token: TEST_ADMIN_TOKEN },
) {
  const podId: string = (await api(base, "POST", "/api/v1/pods", { name, mode: "collaboration" }, admin)).body
    .id;
  const tokens: Record<string, string> = {};
  for (const [memberId, role] of Object.entries(agents)) {
    await api(
      base,
      "POST",
      `/api/v1/pods/${podId}/members`,
      { memberId, kind: "agent", displayName: memberId, roles: [role] },
      admin,
    );
    tokens[memberId] = (
      await api(base, "POST", `/api/v1/pods/${podId}/members/${memberId}/tokens`, { label: name }, admin)
    ).body.token;
  }
  return { podId, tokens };
}

import { readConfig } from "../config";
import { startServer, type RunningServer } from "../start-server";
import { createTestDatabase, type Provider, type TestDatabase } from "./test-databases";

export type TestServer = RunningServer & { db: TestDatabase; stop: () => Promise<void> };

/** The real server (agent API + sockets, no web UI) on a fresh database and a free port. */
export async function startTestServer(provider: Provider): Promise<TestServer> {
  const db = await createTestDatabase(provider);
  const server = await startServer(readConfig({ DATABASE_URL: db.url, PORT: "0", HOST: "127.0.0.1", PODWATCH_DEMO: "0" }), { web: false });
  return { ...server, db, stop: async () => (await server.close(), await db.drop()) };
}

export async function api<T = any>(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

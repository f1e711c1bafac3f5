// Real databases for integration tests: a fresh SQLite file in a temp dir, and
// a fresh PostgreSQL database when TEST_DATABASE_URL is set. Never mocks.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

export type TestDatabase = { provider: "sqlite" | "postgres"; url: string; drop: () => Promise<void> };
export type Provider = TestDatabase["provider"];

export function testProviders(): Provider[] {
  return process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];
}

export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  if (provider === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-test-"));
    return {
      provider,
      url: `file:${join(dir, "tape.db")}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = process.env.TEST_DATABASE_URL!;
  const name = `podwatch_test_${randomBytes(6).toString("hex")}`;
  await withClient(admin, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    provider,
    url: url.toString(),
    drop: () =>
      withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Runs raw SQL against a test database, outside podwatch (to prove what the database itself enforces). */
export async function rawSql(db: TestDatabase, sql: string, params: unknown[] = []): Promise<unknown[]> {
  if (db.provider === "postgres") return withClient(db.url, async (c) => (await c.query(sql, params)).rows);
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(db.url.replace(/^file:/, ""));
  try {
    const stmt = conn.prepare(sql.replace(/\$\d+/g, "?"));
    return stmt.reader ? stmt.all(...params) : (stmt.run(...params), []);
  } finally {
    conn.close();
  }
}

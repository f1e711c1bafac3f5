// Committed SQL migrations, applied at start by a small migrator that records
// them in Prisma's own `_prisma_migrations` table (checksum = SHA-256 of the
// file), so Prisma tooling elsewhere sees a clean history. The Prisma CLI's
// migrate needs a native engine this machine cannot download. Both appliers live
// here; the drivers are imported as types only, so neither store loads the other's.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type pg from "pg";
import { advisoryLocks } from "./advisory-locks";

export type Migration = { name: string; sql: string; checksum: string };
export type Provider = "sqlite" | "postgres";

export const PRISMA_DIR = join(import.meta.dirname, "..", "..", "prisma");

export function listMigrations(provider: Provider, prismaDir = PRISMA_DIR): Migration[] {
  const dir = join(prismaDir, provider, "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** Prisma's own bookkeeping table, as its engine creates it. */
export const MIGRATIONS_TABLE_SQL: Record<Provider, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`,
  postgres: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`,
};

/** Names of applied migrations that are not in the folder or whose file changed since. */
export function checkHistory(wanted: Migration[], applied: { name: string; checksum: string }[]): string[] {
  const byName = new Map(wanted.map((m) => [m.name, m.checksum]));
  return applied.filter((a) => byName.get(a.name) !== a.checksum).map((a) => a.name);
}

/** SQLite: the whole check-and-apply in one immediate transaction. */
export function migrateSqlite(db: Database.Database) {
  db.exec(MIGRATIONS_TABLE_SQL.sqlite);
  const wanted = listMigrations("sqlite");
  db.transaction(() => {
    const applied = db
      .prepare(`SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL`)
      .all() as { name: string; checksum: string }[];
    const drifted = checkHistory(wanted, applied);
    if (drifted.length)
      throw new Error(`Applied migrations differ from prisma/sqlite/migrations: ${drifted.join(", ")}`);
    const done = new Set(applied.map((a) => a.name));
    for (const m of wanted.filter((m) => !done.has(m.name))) {
      db.exec(m.sql);
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, current_timestamp, ?, 1)`,
      ).run(randomUUID(), m.checksum, m.name);
    }
  }).immediate();
}

const MIGRATION_LOCK = advisoryLocks.migrations;

/** PostgreSQL: processes starting together take turns on an advisory lock; each migration is its own transaction. */
export async function migratePostgres(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await client.query(MIGRATIONS_TABLE_SQL.postgres);
    const wanted = listMigrations("postgres");
    const { rows: applied } = await client.query<{ name: string; checksum: string }>(
      `SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL`,
    );
    const drifted = checkHistory(wanted, applied);
    if (drifted.length)
      throw new Error(`Applied migrations differ from prisma/postgres/migrations: ${drifted.join(", ")}`);
    const done = new Set(applied.map((a) => a.name));
    for (const m of wanted.filter((m) => !done.has(m.name))) {
      await client.query("BEGIN");
      try {
        // One simple-protocol query: the script may contain $$-quoted function bodies.
        await client.query(m.sql);
        await client.query(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw e;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}

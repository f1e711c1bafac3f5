// Committed SQL migrations, applied at start by a small migrator that records
// them in Prisma's own `_prisma_migrations` table (checksum = SHA-256 of the
// file), so Prisma tooling elsewhere sees a clean history. The Prisma CLI's
// migrate needs a native engine this machine cannot download.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { join } from "node:path";

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

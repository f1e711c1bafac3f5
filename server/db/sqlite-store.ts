// The embedded store: one better-sqlite3 connection in WAL mode, shared with
// Prisma's client so that every write in this process goes through a single
// connection and a synchronous transaction never interleaves with another.
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type Database from "better-sqlite3";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaClient } from "./generated/sqlite/client";
import { planAppend, type StoredEvent, type StoredRef } from "../domain/plan-append";
import { AppError, notFound } from "../domain/errors";
import { listMigrations, MIGRATIONS_TABLE_SQL, checkHistory } from "./migrations";
import { EVENT_COLUMNS, type AppendOutcome, type AppendRequest, type TapeStore } from "./tape-store";

export function sqlitePath(url: string): string {
  return resolve(url.replace(/^file:/, ""));
}

export async function openSqliteStore(url: string): Promise<TapeStore> {
  const path = sqlitePath(url);
  mkdirSync(dirname(path), { recursive: true });
  const adapter = (await new PrismaBetterSqlite3({ url: `file:${path}`, timeout: 10_000 }).connect()) as SqlDriverAdapter & {
    client: Database.Database;
  };
  const db = adapter.client;
  db.pragma("journal_mode = WAL");
  // FULL: a commit is fsynced before we acknowledge it; nothing acknowledged is lost.
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  migrateSqlite(db);
  const factory: SqlDriverAdapterFactory = {
    provider: "sqlite",
    adapterName: adapter.adapterName,
    connect: async () => adapter,
  };
  const prisma = new PrismaClient({ adapter: factory });
  return new SqliteStore(db, prisma);
}

function migrateSqlite(db: Database.Database) {
  db.exec(MIGRATIONS_TABLE_SQL.sqlite);
  const wanted = listMigrations("sqlite");
  db.transaction(() => {
    const applied = db
      .prepare(`SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE rolled_back_at IS NULL`)
      .all() as { name: string; checksum: string }[];
    const drifted = checkHistory(wanted, applied);
    if (drifted.length) throw new Error(`Applied migrations differ from prisma/sqlite/migrations: ${drifted.join(", ")}`);
    const done = new Set(applied.map((a) => a.name));
    for (const m of wanted.filter((m) => !done.has(m.name))) {
      db.exec(m.sql);
      db.prepare(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES (?, ?, current_timestamp, ?, 1)`,
      ).run(randomUUID(), m.checksum, m.name);
    }
  }).immediate();
}

class SqliteStore implements TapeStore {
  readonly kind = "sqlite" as const;
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    readonly prisma: PrismaClient,
  ) {
    const prep = (sql: string) => db.prepare(sql).safeIntegers(false);
    this.stmts = {
      head: prep(`SELECT head_seq AS seq, head_hash AS hash FROM pod WHERE id = ?`),
      setHead: prep(`UPDATE pod SET head_seq = ?, head_hash = ? WHERE id = ?`),
      insert: prep(
        `INSERT INTO event (id, pod_id, seq, type, actor, role, ts, received_at, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      read: prep(`SELECT ${EVENT_COLUMNS} FROM event WHERE pod_id = ? AND seq > ? ORDER BY seq LIMIT ?`),
    };
  }

  async appendGroup(requests: AppendRequest[]): Promise<AppendOutcome[]> {
    try {
      return this.db.transaction(() => requests.map((r) => this.appendOne(r))).immediate();
    } catch {
      // Something failed below the domain checks: isolate it by retrying alone.
      return requests.map((r) => {
        try {
          return this.db.transaction(() => this.appendOne(r)).immediate();
        } catch (error) {
          return { ok: false as const, error };
        }
      });
    }
  }

  /** Domain refusals are returned (nothing of the request written); driver errors throw. */
  private appendOne(r: AppendRequest): AppendOutcome {
    const head = this.stmts.head.get(r.podId) as { seq: number; hash: string } | undefined;
    if (!head) return { ok: false, error: notFound("pod") };
    const existing = this.findExisting(r.events.map((e) => e.id));
    let plan;
    try {
      plan = planAppend(r.podId, head, r.events, existing, new Date().toISOString());
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
    for (const e of plan.rows) {
      this.stmts.insert.run(e.id, e.podId, e.seq, e.type, e.actor, e.role, e.ts, e.receivedAt, e.body, e.prevHash, e.hash);
    }
    if (plan.rows.length) this.stmts.setHead.run(plan.head.seq, plan.head.hash, r.podId);
    return { ok: true, acks: plan.acks, added: plan.rows };
  }

  private findExisting(ids: string[]): Map<string, StoredRef> {
    const found = new Map<string, StoredRef>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const rows = this.db
        .prepare(`SELECT id, pod_id AS podId, seq, hash FROM event WHERE id IN (${chunk.map(() => "?").join(",")})`)
        .safeIntegers(false)
        .all(...chunk) as StoredRef[];
      for (const row of rows) found.set(row.id, row);
    }
    return found;
  }

  async readEvents(podId: string, afterSeq: number, limit: number): Promise<StoredEvent[]> {
    return this.stmts.read.all(podId, afterSeq, limit) as StoredEvent[];
  }

  async ping() {
    this.db.prepare("SELECT 1 FROM pod LIMIT 1").get();
  }

  async close() {
    await this.prisma.$disconnect();
    if (this.db.open) this.db.close();
  }
}

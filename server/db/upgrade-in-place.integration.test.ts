// A database written by an earlier version opens, migrates and goes on: its rows (the pod, its
// hash-chained events, its state stored at the head, as that version wrote one per commit) are
// put back exactly as that version stored them (fixtures/pod-written-by-b61db0b.json, dumped from
// a pod it created through its API), into a database migrated only as far as that version went.
// The server then applies what came since, serves the pod as stored, and appends after it.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { api, startServerOn } from "../testing/test-server";
import { createTestDatabase, rawSql, testProviders, type TestDatabase } from "../testing/test-databases";
import { listMigrations, MIGRATIONS_TABLE_SQL } from "./migrations";
import { replay } from "../domain/state/apply-event";
import { emptyPodState, PROJECTION_VERSION, type PodState } from "../domain/state/pod-state";
import { toAppliedEvent } from "../domain/state/stored-event";

type Row = Record<string, string | number | null>;
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "pod-written-by-b61db0b.json"), "utf8"),
) as {
  migrations: string[];
  pod: Row[];
  event: Row[];
  pod_state: Row[];
};

/** The schema as the earlier version left it: its migrations only, recorded as the migrator records them. */
async function migrateAsEarlier(db: TestDatabase) {
  const earlier = listMigrations(db.provider).filter((m) => fixture.migrations.includes(m.name));
  expect(earlier.map((m) => m.name)).toEqual(fixture.migrations);
  const record = `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count) VALUES ($1, $2, CURRENT_TIMESTAMP, $3, 1)`;
  if (db.provider === "sqlite") {
    const conn = new Database(db.url.replace(/^file:/, ""));
    conn.exec(MIGRATIONS_TABLE_SQL.sqlite);
    for (const m of earlier) {
      conn.exec(m.sql);
      conn.prepare(record.replace(/\$\d/g, "?")).run(randomUUID(), m.checksum, m.name);
    }
    conn.close();
    return;
  }
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(MIGRATIONS_TABLE_SQL.postgres);
  for (const m of earlier) {
    await client.query(m.sql);
    await client.query(record, [randomUUID(), m.checksum, m.name]);
  }
  await client.end();
}

/** The rows as stored: on SQLite that version packed chain hashes into 32-byte BLOBs. */
async function insertRows(db: TestDatabase, table: string, rows: Row[], packed: string[] = []) {
  for (const row of rows) {
    const cols = Object.keys(row);
    const values = cols.map((c) =>
      db.provider === "sqlite" && packed.includes(c) ? Buffer.from(String(row[c]), "hex") : row[c],
    );
    await rawSql(
      db,
      `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(", ")})`,
      values,
    );
  }
}

describe.each(testProviders())("a database an earlier version wrote, on %s", (provider) => {
  let db: TestDatabase;
  let server: RunningServer | null = null;
  beforeAll(async () => {
    db = await createTestDatabase(provider);
    await migrateAsEarlier(db);
    await insertRows(db, "pod", fixture.pod);
    await insertRows(db, "event", fixture.event, ["prev_hash", "hash"]);
    await insertRows(db, "pod_state", fixture.pod_state);
  });
  afterAll(async () => (await server?.close(), await db?.drop()));

  it("migrates at start, serves the pod as stored, appends after its head and replays to the same state", async () => {
    const podId = String(fixture.pod[0]!.id);
    const head = Number(fixture.pod[0]!.head_seq);
    server = await startServerOn(db);
    const { url, app } = server;
    const applied = (await rawSql(db, `SELECT migration_name AS name FROM _prisma_migrations`)) as {
      name: string;
    }[];
    expect(applied.map((m) => m.name).sort()).toEqual(listMigrations(provider).map((m) => m.name));
    // As stored while the projection's version is the same; rebuilt from the tape once it changed.
    const stored = JSON.parse(String(fixture.pod_state[0]!.state)) as PodState;
    const earlier = (await api(url, "GET", `/api/v1/pods/${podId}/events?limit=1000`)).body.events as any[];
    const asTape = (events: any[]) =>
      events.map((e) => ({
        ...e,
        body: JSON.stringify(e.body),
        meta: e.meta ? JSON.stringify(e.meta) : null,
      }));
    const rebuilt = replay(asTape(earlier).map(toAppliedEvent), emptyPodState());
    expect(await app.store.readState(podId)).toEqual(stored.v === PROJECTION_VERSION ? stored : rebuilt);
    expect(rebuilt.seq).toBe(head);
    const board = (await api(url, "GET", `/api/v1/pods/${podId}/state`)).body.board as {
      taskId: string;
      status: string;
    }[];
    expect(board.map((t) => [t.taskId, t.status])).toEqual([
      ["task_001", "done"],
      ["task_002", "pending"],
      ["task_003", "pending"],
    ]);

    const added = await api(url, "POST", `/api/v1/pods/${podId}/events`, {
      type: "task.updated",
      actor: "impl",
      body: { taskId: "task_002", status: "in_progress" },
    });
    expect(added.status).toBe(201);
    const tape = (await api(url, "GET", `/api/v1/pods/${podId}/events?limit=1000`)).body.events as any[];
    expect(tape.map((e) => e.seq)).toEqual(Array.from({ length: head + 1 }, (_, i) => i + 1));
    expect(tape.at(-1).prevHash).toBe(fixture.event.at(-1)!.hash);
    const replayed = replay(asTape(tape).map(toAppliedEvent), emptyPodState());
    expect(replayed.tasks["task_002"]!.status).toBe("in_progress");
    expect(await app.store.readState(podId)).toEqual(replayed);
    expect(JSON.parse((await app.store.readStoredState(podId))!.state)).toEqual(replayed);
    // The chain the earlier version hashed verifies whole, the new event linked to it.
    expect((await api(url, "GET", `/api/v1/pods/${podId}/verify?full=1`)).body).toMatchObject({
      ok: true,
      checked: head + 1,
    });
  });
});

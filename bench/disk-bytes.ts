// The storage target: bytes on disk per ~300-byte event, on embedded SQLite. A server of
// its own (temp database, nothing else in it) takes 50,000 events whose JSON as posted is exactly
// 300 bytes, in batches; once it has stopped, the WAL is checkpointed into the file and the
// file's size is divided by the events stored (the pod's own few included). Everything the
// server keeps per event counts: the row, its hash chain, indexes, projections.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../server/testing/spawn-server";
import type { Figure } from "./figures";
import { createPod, note } from "./http";
import { dealRequests, rawPost, runKeepAliveClients } from "./load/keep-alive-clients";

const EVENT_BYTES = 300;
const BATCHES = 50;
const PER_BATCH = 1000;
const FILLER =
  "Ran the integration suite against the staging database; two flaky tests retried and passed, the migration applied cleanly, and the coverage report is attached to the task for review. ".repeat(
    3,
  );

/** note(i) with its text cut so the event's JSON is exactly EVENT_BYTES long. */
function eventOf(i: number) {
  const e = note(i);
  const room = EVENT_BYTES - JSON.stringify({ ...e, body: { ...e.body, text: "" } }).length;
  return { ...e, body: { ...e.body, text: FILLER.slice(0, room) } };
}

/** Database size per stored event once the WAL is checkpointed into the file. */
export async function bytesPerStoredEvent(dbFile: string): Promise<{ bytes: number; events: number }> {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(dbFile);
  db.pragma("wal_checkpoint(TRUNCATE)");
  const { n } = db.prepare("SELECT count(*) AS n FROM event").get() as { n: number };
  db.close();
  const size = [dbFile, `${dbFile}-wal`].filter(existsSync).reduce((sum, f) => sum + statSync(f).size, 0);
  return { bytes: size / n, events: n };
}

export async function diskBytesFigure(): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-disk-"));
  const dbFile = join(dir, "disk.db");
  const server = await spawnServer({ DATABASE_URL: `file:${dbFile}` }, { name: "the disk-size server" });
  try {
    const pod = await createPod(server.url, "bench-disk");
    const port = Number(new URL(server.url).port);
    const requests = Array.from({ length: BATCHES }, (_, b) =>
      rawPost(
        port,
        `/api/v1/pods/${pod.podId}/events`,
        pod.token,
        JSON.stringify({ events: Array.from({ length: PER_BATCH }, (_, i) => eventOf(b * PER_BATCH + i)) }),
      ),
    );
    const r = await runKeepAliveClients({ port, perClient: dealRequests(requests, 2), expectStatus: 201 });
    await server.stop();
    const label = `bytes on disk per event (SQLite, checkpointed; event JSON as posted: ${JSON.stringify(eventOf(0)).length} bytes)`;
    if (r.errors)
      return {
        key: "disk.bytesPerEvent",
        label,
        value: null,
        unit: "B",
        target: { atMost: 600 },
        note: `FAILED: ${r.firstError}`,
      };
    const { bytes, events } = await bytesPerStoredEvent(dbFile);
    return {
      key: "disk.bytesPerEvent",
      label,
      value: Math.round(bytes),
      unit: "B",
      target: { atMost: 600 },
      note: `${events.toLocaleString("en")} events in the database file`,
    };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

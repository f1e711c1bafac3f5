// WAL checkpoints off the event loop. SQLite's auto-checkpoint runs inside the commit that takes
// the WAL past `wal_autocheckpoint` pages, on the connection that committed: with better-sqlite3
// that is the event loop, copying up to 64 MiB back into the database and syncing it (measured:
// 0.2–1.1 s in one commit of a large append on the busy machine). Here a worker thread with a
// connection of its own runs PASSIVE checkpoints instead, at most one per `everyMs` while the
// serving connection writes: a PASSIVE checkpoint takes no lock a writer or reader waits for,
// so the serving connection never waits for it.
//
// Bounded: once a checkpoint has copied every frame, the next write starts the WAL over from its
// beginning. Under writes that never pause long enough for that, the serving connection's own
// auto-checkpoint stays as a backstop at AUTOCHECKPOINT_BACKSTOP pages, and finds most frames
// already copied by the worker. Durable as before: a checkpoint syncs the WAL before copying and
// the database file after (SQLite does so with synchronous NORMAL or FULL); what it has not
// copied is still in the WAL, which recovery replays. On close the worker's connection closes
// first, so the serving connection's own close checkpoints and removes the WAL.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** Pages (4 KiB) past which the serving connection checkpoints itself: only if the worker falls behind. */
export const AUTOCHECKPOINT_BACKSTOP = 65_536;
/** At most one checkpoint per this many ms while writes go on. */
export const CHECKPOINT_EVERY_MS = 1_000;

/** What `PRAGMA wal_checkpoint` answers: frames in the WAL, and how many of them are in the database. */
export type CheckpointResult = { busy: number; log: number; checkpointed: number };

// Plain JavaScript run by the worker (eval: no TypeScript loader needed, under tsx or vitest).
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma("synchronous = NORMAL");
parentPort.on("message", (m) => {
  if (m === "close") {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ ok: db.pragma("wal_checkpoint(PASSIVE)")[0] });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message) });
  }
});
`;

type Reply = { ok?: CheckpointResult; error?: string };

export class WalCheckpointer {
  /** Started by the first checkpoint: a server that has not written since it started holds no thread for it. */
  private worker: Worker | null = null;
  private exited: Promise<void> = Promise.resolve();
  private gone = false;
  private closed = false;
  private dirty = false;
  private timer: NodeJS.Timeout | null = null;
  /** Checkpoints run one after the other; `pending` counts those asked for and not done. */
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private lastStart = -Infinity;

  constructor(
    private readonly path: string,
    private readonly everyMs = CHECKPOINT_EVERY_MS,
  ) {}

  private started(): Worker {
    if (this.worker) return this.worker;
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const worker = new Worker(WORKER, { eval: true, workerData: { path: this.path, driver } });
    worker.unref(); // a server or test that is done does not wait for it
    this.exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    void this.exited.then(() => (this.gone = true));
    // Without it the serving connection's own auto-checkpoint (the backstop) still bounds the WAL.
    worker.on("error", (e) => console.error(`podwatch: the WAL checkpoint worker failed: ${e.message}`));
    return (this.worker = worker);
  }

  /** The serving connection committed: a checkpoint follows, within `everyMs` of the previous one. */
  wrote() {
    if (this.dirty || this.closed) return;
    this.dirty = true;
    this.schedule();
  }

  /** Runs one checkpoint now (after the one in flight, if any). */
  checkpoint(): Promise<CheckpointResult> {
    this.pending++;
    const run = this.queue
      .catch(() => {})
      .then(() => this.runOne())
      .finally(() => {
        this.pending--;
        if (this.dirty) this.schedule();
      });
    this.queue = run;
    return run;
  }

  private runOne(): Promise<CheckpointResult> {
    if (this.gone || (this.closed && !this.worker))
      return Promise.reject(new Error("the WAL checkpoint worker has stopped"));
    this.dirty = false;
    this.lastStart = performance.now();
    const worker = this.started();
    return new Promise<CheckpointResult>((resolve, reject) => {
      const onExit = () => reject(new Error("the WAL checkpoint worker exited"));
      worker.once("exit", onExit);
      worker.once("message", (r: Reply) => {
        worker.off("exit", onExit);
        if (r.ok) resolve(r.ok);
        else reject(new Error(r.error));
      });
      worker.postMessage("checkpoint");
    });
  }

  private schedule() {
    if (this.timer || this.pending || this.closed || this.gone) return;
    const wait = Math.max(0, this.lastStart + this.everyMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.checkpoint().catch((e: Error) =>
        console.error(`podwatch: a WAL checkpoint failed (${e.message}); the next write tries again`),
      );
    }, wait);
    this.timer.unref();
  }

  /** Closes the worker's connection and stops it, once the checkpoint in flight is done. */
  async close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.queue.catch(() => {});
    const worker = this.worker;
    if (!worker || this.gone) return;
    worker.postMessage("close");
    const stuck = setTimeout(() => void worker.terminate(), 5_000);
    await this.exited;
    clearTimeout(stuck);
  }
}

// Durability without blocking: an append commits with synchronous=NORMAL (its WAL frames reach the
// OS, no fsync: a fraction of a millisecond on the event loop), then this flushes the WAL file to
// disk on libuv's thread pool, and only then is anything acknowledged or published. That is what
// synchronous=FULL promises — an acknowledged event survives a power cut — without the event loop
// sitting in fsync for every commit: requests keep being parsed and checked meanwhile, and the next
// group commits as soon as this one is durable.
//
// Why one fdatasync of the WAL is enough: a WAL commit is its frames plus a commit frame, written in
// order to the one WAL file; SQLite's recovery keeps exactly the transactions whose commit frame is
// valid. Once the file's data is on disk every commit written before the flush started is durable
// (a checkpoint itself syncs the WAL first and the database after, in NORMAL as in FULL).
import { closeSync, fdatasync, openSync } from "node:fs";

export type SyncFile = (fd: number) => Promise<void>;

const fdatasyncAsync: SyncFile = (fd) =>
  new Promise((resolve, reject) => fdatasync(fd, (e) => (e ? reject(e) : resolve())));

export class WalFlusher {
  private fd: number | null = null;
  private inFlight: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(
    private readonly walPath: string,
    private readonly syncFile: SyncFile = fdatasyncAsync,
  ) {}

  /** Resolves once everything written to the WAL before this call is on disk. */
  flush(): Promise<void> {
    if (!this.inFlight) return this.start();
    // The flush in flight may have started before our write: the one after it covers us, and
    // everyone who asks meanwhile shares it (one fsync for many commits).
    return (this.next ??= this.inFlight
      .catch(() => {})
      .then(() => {
        this.next = null;
        return this.start();
      }));
  }

  private start(): Promise<void> {
    // Opened on first use: the WAL file exists once the connection has written in WAL mode, and
    // stays (same file) while it is open. fsync applies to the file, whichever descriptor asks.
    this.fd ??= openSync(this.walPath, "r");
    const flushing: Promise<void> = this.syncFile(this.fd).finally(() => {
      if (this.inFlight === flushing) this.inFlight = null;
    });
    this.inFlight = flushing;
    return flushing;
  }

  async close() {
    await Promise.allSettled([this.inFlight, this.next]);
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

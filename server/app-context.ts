// The process's long-lived parts, built once by server/main.ts (or a test) and
// reachable from Next's separately bundled code through globalThis.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Config } from "./config";
import { crashingAfterAppendOf, PRODUCTION_KNOBS, type TestKnobs } from "./test-knobs";
import type { TapeStore } from "./db/tape-store";
import type { AccessContext } from "./access/access-context";
import { createAppender, type AppendEvents } from "./tape/append-events";
import type { TapeBus } from "./tape/bus";
import { InProcessBus } from "./tape/in-process-bus";
import type { BlobStore } from "./blobs/blob-store";
import { VerificationSlots } from "./tape/verification-slots";
import { RecomputeSlots } from "./signals/recompute-slots";
import { OutboxDispatcher } from "./outbox/outbox";
import { Drain } from "./cluster/drain";

export type AppContext = {
  config: Config;
  /** Timings and allowances tests change (server/test-knobs.ts); PRODUCTION_KNOBS otherwise. */
  knobs: TestKnobs;
  store: TapeStore;
  bus: TapeBus;
  append: AppendEvents;
  access: AccessContext;
  blobs: BlobStore;
  /** Tape walks and blob re-hashes in flight, one per caller. */
  verifications: VerificationSlots;
  /** Signals recomputed from a tape (as of a seq, a window, a signed record), at most two at once. */
  recomputations: RecomputeSlots;
  /** Hands each committed append to the consumers that reach people and systems (server/background.ts starts it). */
  outbox: OutboxDispatcher;
  /** Begun on SIGTERM: /readyz says draining, long-polls end early (server/cluster/drain.ts). */
  drain: Drain;
  authHandler?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
};

/**
 * `busNode`: the name this process's bus signs with, the one the store was opened with
 * (server/db/commit-notice.ts busNodeName). On PostgreSQL the bus spans every node on the
 * database; on SQLite (one process) it is in-process.
 */
export async function createAppContext(
  config: Config,
  store: TapeStore,
  access: AccessContext,
  blobs: BlobStore,
  busNode: string,
  knobs: TestKnobs = PRODUCTION_KNOBS,
): Promise<AppContext> {
  const bus: TapeBus =
    store.kind === "postgres"
      ? await (
          await import("./tape/postgres-bus")
        ).PostgresBus.open({ url: config.databaseUrl, store, node: busNode })
      : new InProcessBus();
  // A token revoked on any node stops working here at once, not when this node's short cache runs out.
  bus.on("credential-revoked", (c) => c.kind === "agent-token" && access.tokens.forgetId(c.tokenId));
  return {
    config,
    knobs,
    store,
    bus,
    append: crashingAfterAppendOf(createAppender(store, bus), knobs.crashAfterAppendOf),
    access,
    blobs,
    verifications: new VerificationSlots(),
    recomputations: new RecomputeSlots(),
    outbox: new OutboxDispatcher(store, bus),
    drain: new Drain(),
  };
}

const KEY = Symbol.for("podwatch.app");
type Holder = { [KEY]?: AppContext };

export function publishAppContext(app: AppContext) {
  (globalThis as Holder)[KEY] = app;
}

/** The context, or null while Next builds (no server runs then). */
export function maybeAppContext(): AppContext | null {
  return (globalThis as Holder)[KEY] ?? null;
}

/** For Next's server code: the context created by the custom server in this process. */
export function appContext(): AppContext {
  const app = (globalThis as Holder)[KEY];
  if (!app) throw new Error("podwatch app context is not initialised (start with `npm start`)");
  return app;
}

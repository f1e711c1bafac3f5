// The storage port of the tape. Two implementations (SQLite, PostgreSQL) share
// the planning in server/domain/plan-append.ts and differ only in SQL.
import type { Head, StoredEvent } from "../domain/plan-append";
import type { PodState } from "../domain/state/pod-state";
import type { EventFilter } from "./event-search";
import type { GroupOutcome, GroupRequest, OutboxEntry } from "../domain/plan-group";
import type { PrismaClient } from "./generated/sqlite/client";
import type pg from "pg";
import type { TimeSlices } from "./time-slices";

export type AppendRequest = GroupRequest;
/** Per request: its acks and the rows it added, or the error that refused it alone. */
export type AppendOutcome = GroupOutcome | { ok: false; error: unknown };

export interface TapeStore {
  readonly kind: "sqlite" | "postgres";
  /** Both generated clients expose the same model API; typed as the SQLite one. */
  readonly prisma: PrismaClient;
  /** PostgreSQL only: the store's connection pool, for work that streams through its own connection (blobs). */
  readonly pool?: pg.Pool;
  /** Appends several requests in one transaction; each request is all-or-nothing. */
  appendGroup(requests: AppendRequest[]): Promise<AppendOutcome[]>;
  /**
   * Appends one large request, all-or-nothing, giving the event loop back between `slices`. Other
   * pods' appends go on meanwhile; the caller sends no other append to this pod until it is done.
   */
  appendLarge(request: AppendRequest, slices: TimeSlices): Promise<AppendOutcome>;
  /** The pod's last seq and hash, or null for an unknown pod. */
  readHead(podId: string): Promise<Head | null>;
  readEvents(podId: string, afterSeq: number, limit: number): Promise<StoredEvent[]>;
  /** Events matching `filter` with seq < `before`, newest first. */
  searchEvents(podId: string, filter: EventFilter, before: number, limit: number): Promise<StoredEvent[]>;
  /** The pod's projections at its head, or null for an unknown pod. */
  readState(podId: string): Promise<PodState | null>;
  /** The projection row exactly as stored (for the replay-equals-stored check). */
  readStoredState(podId: string): Promise<{ seq: number; state: string } | null>;
  /**
   * Up to `limit` outbox rows, oldest first, that nobody holds (or whose lease ran out), leased
   * to the caller until `until`: another dispatcher (another node) skips them meanwhile.
   */
  claimOutbox(limit: number, now: string, until: string): Promise<OutboxRow[]>;
  /** Removes rows once every consumer took them (one statement: one commit for a whole run). */
  deleteOutbox(ids: number[]): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type OutboxRow = {
  id: number;
  podId: string;
  fromSeq: number;
  toSeq: number;
  inbox: string;
  createdAt: string;
};
export const OUTBOX_COLUMNS = `id, pod_id AS "podId", from_seq AS "fromSeq", to_seq AS "toSeq", inbox, created_at AS "createdAt"`;

export const EVENT_COLUMNS = `id, pod_id AS "podId", seq, type, actor, role, ts, received_at AS "receivedAt", body, meta, prev_hash AS "prevHash", hash`;

/** The outbox row's `inbox` column: what the consumers need besides the seq range. */
export const outboxInbox = (o: OutboxEntry) => JSON.stringify({ opened: o.opened, closed: o.closed });

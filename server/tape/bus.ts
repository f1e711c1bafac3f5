// The bus: the write path publishes committed events here and the realtime
// layer listens, so the store never imports the socket layer. An interface, so
// a node can be given another implementation (across processes) without its
// publishers or listeners changing: ./in-process-bus.ts on SQLite (one process),
// ./postgres-bus.ts on PostgreSQL (every node hears every node's commits).
import type { TapeEvent } from "../wire/events";

export type CommittedBatch = { podId: string; events: TapeEvent[] };
/** A credential that was just revoked: whatever it still holds open (live sockets) ends now. */
export type RevokedCredential =
  { kind: "agent-token"; tokenId: string } | { kind: "share-link"; linkId: string };
/** Each event the bus carries, and its payload. */
export type BusEvents = {
  committed: CommittedBatch;
  "pod-created": { podId: string };
  "credential-revoked": RevokedCredential;
};
export type BusEvent = keyof BusEvents;
export type BusListener<K extends BusEvent> = (payload: BusEvents[K]) => void;
/** Whether the bus hears every commit (a node-spanning bus can lose its connection for a while). */
export type BusHealth = { ok: boolean; detail?: string };

export interface TapeBus {
  /** "postgres": hears every node on the database; "in-process": this process only. */
  readonly kind: "postgres" | "in-process";
  /** Hands `payload` to every listener of `event`, this process's synchronously. */
  emit<K extends BusEvent>(event: K, payload: BusEvents[K]): void;
  on<K extends BusEvent>(event: K, listener: BusListener<K>): void;
  off<K extends BusEvent>(event: K, listener: BusListener<K>): void;
  /** How many listeners of `event` this process has. */
  listenerCount(event: BusEvent): number;
  health(): BusHealth;
  /** Stops hearing other nodes; local listeners are the callers' to remove. */
  close(): Promise<void>;
}

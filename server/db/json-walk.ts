// How the sliced JSON writers and readers walk a value (../history/state-codec.ts for checkpoints,
// ./json-in-slices.ts for responses and snapshots): which containers are walked entry by entry and
// which are written by one JSON.stringify, and what JSON.stringify would see for a value.

/** Work in one turn of the event loop. */
export const CODEC_SLICE_MS = 5;
/** A container with more entries than this is walked (the root's and its children always are). */
export const SPLIT_ENTRIES = 32;
/** A container whose text is longer than this is walked whatever its entries, down to MAX_WALK_DEPTH. */
export const LARGE_CHARS = 64 * 1024;
export const MAX_WALK_DEPTH = 16;

export type Container = Record<string, unknown> | unknown[];

export const isContainer = (v: unknown): v is Container => typeof v === "object" && v !== null;
export const entries = (v: Container) => (Array.isArray(v) ? v.length : Object.keys(v).length);

export const hasToJson = (v: object) => typeof (v as { toJSON?: unknown }).toJSON === "function";

/**
 * What JSON.stringify writes for `v` under `key`: its toJSON's answer when it has one. A pod
 * state's shared record answers with its plain entries (../domain/state/shared-record.ts), which
 * are then walked like any object rather than written whole.
 */
export const jsonValue = (v: unknown, key: string | number): unknown =>
  isContainer(v) && hasToJson(v) ? (v as { toJSON(key: string): unknown }).toJSON(String(key)) : v;

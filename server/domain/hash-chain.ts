// The tamper-evident chain: every event's hash covers its content and the
// previous event's hash, so changing or dropping any stored event breaks every
// hash after it.
import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json";

export const GENESIS_HASH = "0".repeat(64);

/** SHA-256 as lowercase hex: the one hash podwatch names things by (events, blobs, manifests, token hashes). */
export const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** Exactly the stored fields of an event; `body` is the stored JSON text. */
export type ChainedEvent = {
  id: string;
  podId: string;
  seq: number;
  type: string;
  actor: string;
  role: string | null;
  ts: string | null;
  receivedAt: string;
  body: string;
  /** Envelope extras as JSON text (taskId, runId, …); null when there are none. */
  meta: string | null;
  prevHash: string;
};

/** The canonical encoding that is hashed: canonicalJson of the stored fields plus a version. */
export function canonicalEvent(e: ChainedEvent): string {
  // Hand-unrolled canonicalJson (keys in sorted order) — this runs once per
  // ingested event; hash-chain.test.ts proves it equals canonicalJson.
  // `meta` is left out when null, as canonicalJson leaves out absent members.
  const s = JSON.stringify;
  const meta = e.meta === null ? "" : `"meta":${s(e.meta)},`;
  return `{"actor":${s(e.actor)},"body":${s(e.body)},"id":${s(e.id)},${meta}"podId":${s(e.podId)},"prevHash":${s(e.prevHash)},"receivedAt":${s(e.receivedAt)},"role":${s(e.role)},"seq":${s(e.seq)},"ts":${s(e.ts)},"type":${s(e.type)},"v":1}`;
}

export function canonicalEventSlow(e: ChainedEvent): string {
  const { id, podId, seq, type, actor, role, ts, receivedAt, body, meta, prevHash } = e;
  return canonicalJson({
    v: 1,
    id,
    podId,
    seq,
    type,
    actor,
    role,
    ts,
    receivedAt,
    body,
    meta: meta ?? undefined,
    prevHash,
  });
}

export function hashEvent(e: ChainedEvent): string {
  return sha256Hex(canonicalEvent(e));
}

export type ChainCheck = { ok: true; checked: number } | { ok: false; checked: number; firstBadSeq: number };

/** Walks events in seq order from `start`; reports the first event whose seq, link or hash is wrong. */
export class ChainWalker {
  private expectedSeq: number;
  private prevHash: string;
  checked = 0;
  firstBadSeq: number | null = null;

  constructor(start: { seq: number; hash: string } = { seq: 0, hash: GENESIS_HASH }) {
    this.expectedSeq = start.seq + 1;
    this.prevHash = start.hash;
  }

  /** Returns false once the chain is broken; later events are not checked. */
  push(e: ChainedEvent & { hash: string }): boolean {
    if (this.firstBadSeq !== null) return false;
    const bad = e.seq !== this.expectedSeq || e.prevHash !== this.prevHash || hashEvent(e) !== e.hash;
    if (bad) {
      this.firstBadSeq = e.seq !== this.expectedSeq ? this.expectedSeq : e.seq;
      return false;
    }
    this.checked++;
    this.expectedSeq++;
    this.prevHash = e.hash;
    return true;
  }

  result(): ChainCheck {
    return this.firstBadSeq === null
      ? { ok: true, checked: this.checked }
      : { ok: false, checked: this.checked, firstBadSeq: this.firstBadSeq };
  }
}

// How many OTLP exports this server reads, decodes and ingests at once. Decoding runs on the one
// event loop every pod shares, and each export may build tens of megabytes before it is stored:
// exports in parallel make nothing faster, they only add up. Past the bounds the answer is 429
// with Retry-After, which OTLP exporters retry with backoff (the spec's "retryable" codes), so a
// burst is spread out instead of lost.
import { AppError } from "../domain/errors";

/** An exporter sends one batch at a time (the SDKs' batch processors wait for each export). */
export const MAX_EXPORTS_PER_TOKEN = 1;
/** Two: one decoding while the other waits on the database; more would only hold more memory. */
export const MAX_EXPORTS_PER_SERVER = 2;
export const EXPORT_RETRY_AFTER_SECONDS = 1;

export class ExportSlots {
  private readonly perToken = new Map<string, number>();
  private total = 0;

  constructor(
    private readonly maxPerToken = MAX_EXPORTS_PER_TOKEN,
    private readonly maxTotal = MAX_EXPORTS_PER_SERVER,
  ) {}

  /** The token's slot, taken before its body is read: a slow sender holds only its own. Call the release once (more is harmless). */
  forToken(tokenId: string): () => void {
    const n = this.perToken.get(tokenId) ?? 0;
    if (n >= this.maxPerToken)
      throw busy("this token already has an export under way; send one batch at a time");
    this.perToken.set(tokenId, n + 1);
    return once(() => {
      const left = (this.perToken.get(tokenId) ?? 1) - 1;
      if (left > 0) this.perToken.set(tokenId, left);
      else this.perToken.delete(tokenId);
    });
  }

  /** One of the server's slots, taken once the body is in (so no sender's pace can hold it) for decoding and storing. */
  forServer(): () => void {
    if (this.total >= this.maxTotal) throw busy("the server is busy with other exports");
    this.total++;
    return once(() => void this.total--);
  }

  /** Exports under way for `tokenId`, and in all. */
  underWay(tokenId?: string) {
    return tokenId === undefined ? this.total : (this.perToken.get(tokenId) ?? 0);
  }
}

const busy = (why: string) =>
  new AppError(429, "export_busy", `${why}; retry after ${EXPORT_RETRY_AFTER_SECONDS} s`);

function once(release: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    release();
  };
}

// A checkpoint's stored bytes: its text (state-codec.ts) deflated a piece at a time, so that a
// segment the previous checkpoint wrote for the very same object (on a lived-in pod the 3,000-task
// plan, ~1.7 MB of the ~1.9 MB, untouched by the notes of the last thousand events) costs neither
// its encoding nor its compression again. Each piece is a raw deflate stream ended by a full flush:
// byte-aligned, with no final block and no reference to what came before it, so pieces joined and
// closed by an empty final block are one valid deflate stream, read by one inflateRaw.
import { promisify } from "node:util";
import { constants, deflateRaw, inflateRaw } from "node:zlib";
import type { Piece } from "./state-codec";

const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

/** An empty fixed-Huffman block with BFINAL set: closes the joined pieces (RFC 1951, 3.2.3). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A segment's bytes are kept for its object when its text is at least this long (shorter ones are joined with their neighbours). */
export const KEPT_SEGMENT_CHARS = 8 * 1024;

/** A segment's stored bytes, by the object it was written for. Valid as long as the object never changes (a pod's states: ARCHITECTURE.md). */
export type SegmentBytes = WeakMap<object, { key: string | number; bytes: Buffer; chars: number }>;

/** Whether `segments` holds bytes for `value` written under `key`: the encoder then skips it. */
export const hasSegment = (segments: SegmentBytes) => (value: object, key: string | number) =>
  segments.get(value)?.key === key;

/** The pieces' text as one deflate stream, and the text's length. */
export async function deflatePieces(
  pieces: Piece[],
  segments: SegmentBytes,
  keptChars = KEPT_SEGMENT_CHARS,
): Promise<{ bytes: Uint8Array; chars: number }> {
  const parts: Promise<Buffer>[] = [];
  let chars = 0;
  let run = "";
  const deflate = (text: string) =>
    // The fastest level: ~4× less CPU than the default for ~13 % more bytes on a lived-in state.
    deflateRawAsync(Buffer.from(text, "utf8"), { level: 1, finishFlush: constants.Z_FULL_FLUSH });
  const endRun = () => {
    if (run) parts.push(deflate(run));
    run = "";
  };
  for (const piece of pieces) {
    const kept = piece.of && segments.get(piece.of.value);
    if (piece.text === null) {
      if (!kept || kept.key !== piece.of?.key) throw new Error("a reused checkpoint segment is not kept");
      endRun();
      parts.push(Promise.resolve(kept.bytes));
      chars += kept.chars;
      continue;
    }
    chars += piece.text.length;
    if (!piece.of || piece.text.length < keptChars) {
      run += piece.text;
      continue;
    }
    endRun();
    const { value, key } = piece.of;
    const textChars = piece.text.length;
    parts.push(
      deflate(piece.text).then((bytes) => {
        segments.set(value, { key, bytes, chars: textChars });
        return bytes;
      }),
    );
  }
  endRun();
  return { bytes: new Uint8Array(Buffer.concat([...(await Promise.all(parts)), FINAL_BLOCK])), chars };
}

/** The text `deflatePieces` stored. */
export async function inflatePieces(bytes: Uint8Array): Promise<string> {
  return (await inflateRawAsync(bytes)).toString("utf8");
}

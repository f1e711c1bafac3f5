// A checkpoint's stored bytes: its text (state-codec.ts) deflated a piece at a time, so that a
// segment the previous checkpoint wrote for the very same object (on a lived-in pod the 3,000-task
// plan, ~1.7 MB of the ~1.9 MB, untouched by the notes of the last thousand events) costs neither
// its encoding nor its compression again. Each piece is a raw deflate stream of its own, ended by
// a flush: byte-aligned and with no final block, so pieces joined and closed by an empty final
// block are one valid deflate stream, read by one inflateRaw. This framing is part of the format:
// a change to it bumps CODEC_VERSION.
import { promisify } from "node:util";
import { constants, deflateRaw, inflateRaw } from "node:zlib";
import type { Piece, SegmentOf } from "./state-codec";

const deflateRawAsync = promisify(deflateRaw);
const inflateRawAsync = promisify(inflateRaw);

/** An empty fixed-Huffman block with BFINAL set: closes the joined pieces (RFC 1951, 3.2.3). */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A segment's bytes are kept for its object when its text is at least this long (shorter ones join their neighbours). */
export const KEPT_SEGMENT_CHARS = 8 * 1024;

type KeptSegment = { key: string | number; bytes: Buffer; chars: number };
/**
 * A segment's stored bytes, by the object it was written for. Valid as long as the object never
 * changes (a pod's states: ARCHITECTURE.md); held as long as the object is (compressed: a lived-in
 * pod's plan is ~75 KB).
 */
export type SegmentBytes = WeakMap<object, KeptSegment>;

/** The bytes kept for this object under this key, if any: the encoder then skips its lines. */
export const keptSegment =
  (segments: SegmentBytes) =>
  ({ value, key }: SegmentOf): KeptSegment | undefined => {
    const kept = segments.get(value);
    return kept?.key === key ? kept : undefined;
  };

// The fastest level: ~4× less CPU than the default for ~13 % more bytes on a lived-in state.
const deflate = async (text: string) =>
  deflateRawAsync(Buffer.from(text, "utf8"), { level: 1, finishFlush: constants.Z_FULL_FLUSH });

/** The pieces' text as one deflate stream, and its length; long segments' bytes are kept in `segments`. */
export async function deflatePieces(
  pieces: Piece<KeptSegment>[],
  segments: SegmentBytes,
  keptChars = KEPT_SEGMENT_CHARS,
): Promise<{ bytes: Uint8Array; chars: number }> {
  const parts: Promise<Buffer>[] = [];
  let chars = 0;
  let run = "";
  const endRun = () => {
    if (run) parts.push(deflate(run));
    run = "";
  };
  for (const piece of pieces) {
    if ("kept" in piece) {
      endRun();
      parts.push(Promise.resolve(piece.kept.bytes));
      chars += piece.kept.chars;
      continue;
    }
    const { text, of } = piece;
    chars += text.length;
    if (!of || text.length < keptChars) {
      run += text;
      continue;
    }
    endRun();
    parts.push(
      deflate(text).then((out) => {
        // A copy: zlib's answer may be a view of a larger buffer, which keeping it would hold.
        const bytes = Buffer.from(out);
        segments.set(of.value, { key: of.key, bytes, chars: text.length });
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

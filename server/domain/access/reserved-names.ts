// Names only the server bears on the tape, compared as a person reads them. `podwatch` with a
// zero-width space, a soft hyphen, a Cyrillic "о" or a digit zero draws as `podwatch` in the
// control room, so a member (or an actor, or a display name) that reads the same would speak
// with the server's voice. Pure: the fold is Unicode's own data (NFKC, the Default_Ignorable_Code_Point
// property, and the UTS #39 confusables table that unhomoglyph ships), no I/O.
import confusables from "unhomoglyph/data.json";
import { SYSTEM_ACTOR } from "../vocabulary";

/** The names no client may take, in any look-alike form. */
export const RESERVED_NAMES: readonly string[] = [SYSTEM_ACTOR];

/** Longest name folded: ids and display names are bounded by their schemas (200); this caps the work for any caller. */
const MAX_FOLDED = 1_000;

const PROTOTYPES = new Map<string, string>(Object.entries(confusables as Record<string, string>));
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
const EDGE_SPACE = /^\p{White_Space}+|\p{White_Space}+$/gu;

/** UTS #39's mapping: each code point to its prototype (`о` → `o`, `0` → `O`, `ｍ` → `rn`). */
const mapConfusables = (text: string) => Array.from(text, (c) => PROTOTYPES.get(c) ?? c).join("");

/**
 * A name as it reads: NFKC (compatibility forms such as fullwidth letters fold), default-ignorable
 * code points removed (they draw nothing), the edges' spaces trimmed, then the UTS #39 skeleton
 * (NFD, confusables mapped, NFD), lowercased and mapped once more so `P0DWATCH` and `podwatch` meet.
 */
export function nameSkeleton(name: string): string {
  const plain = name.slice(0, MAX_FOLDED).normalize("NFKC").replace(IGNORABLE, "").replace(EDGE_SPACE, "");
  const skeleton = (t: string) => mapConfusables(t.normalize("NFD")).normalize("NFD");
  return skeleton(skeleton(plain).toLowerCase()).toLowerCase();
}

const RESERVED_SKELETONS = new Map(RESERVED_NAMES.map((n) => [nameSkeleton(n), n]));
/** A skeleton's characters in code point order: what a name that bidi controls reorder on screen may read as. */
const letters = (skeleton: string) => Array.from(skeleton).sort().join("");
const RESERVED_LETTERS = new Map(RESERVED_NAMES.map((n) => [letters(nameSkeleton(n)), n]));
const BIDI_CONTROL = /\p{Bidi_Control}/u;

/**
 * The reserved name `name` reads as (`podwatch` for `pоdwatch` with a Cyrillic о), else null. A
 * name holding a bidi control (`\u202Ehctawdop` draws as podwatch) is compared by its letters alone.
 */
export function reservedLookAlike(name: string): string | null {
  const skeleton = nameSkeleton(name);
  const found = RESERVED_SKELETONS.get(skeleton) ?? null;
  if (found !== null || !BIDI_CONTROL.test(name.slice(0, MAX_FOLDED))) return found;
  return RESERVED_LETTERS.get(letters(skeleton)) ?? null;
}

/**
 * The name a person shows in a pod: their account's, unless it reads as a reserved name (an
 * account may be called `PodWatch`); then their email, which the pod knows them by anyway.
 */
export const personDisplayName = (name: string, email: string) =>
  name && reservedLookAlike(name) === null ? name : email;

const codeOf = (c: string) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
const PLAIN = /^[\x20-\x5B\x5D-\x7E]$/;
/** A name for a message, quoted: anything beyond printable ASCII (and `\`) as its code: `"p\u043Edwatch"`. */
export const escapedName = (name: string) =>
  `"${Array.from(name.slice(0, 200), (c) => (PLAIN.test(c) ? c : codeOf(c))).join("")}"`;

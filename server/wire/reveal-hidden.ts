// What a person approves must read as what runs. Characters that draw nothing, draw as a plain
// space, or reorder the text around them (bidi overrides, zero-width and tag characters, control
// codes, look-alike spaces) are the classic ways to make a command look harmless; the held-call
// card and a notification show each as its escape (`\u202E`) instead. Zod-free and pure (the browser
// imports it, as the vocabulary), so exactly which characters count is tested.

export type RevealedPart = { text: string; hidden: boolean };
export type Revealed = { parts: RevealedPart[]; hidden: number };

// Newline and tab are the only control codes left as they are: the card's blocks keep their layout.
const HIDDEN_SOURCE = [
  "\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F", // C0 (but tab and newline), DEL, C1: carriage return, escape sequences
  "\\u00A0\\u1680\\u2000-\\u200A\\u202F\\u205F\\u3000", // spaces that are not the space a shell splits on
  "\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u3164\\uFFA0", // soft hyphen, joiners, fillers that draw nothing
  "\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u206F\\uFEFF", // zero-width, bidi marks, embeddings, overrides and isolates, separators
  "\\uFE00-\\uFE0F\\uFFF9-\\uFFFB\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}", // variation selectors and tag characters (text smuggling)
  "\\uD800-\\uDFFF", // a lone surrogate (the u flag matches only unpaired ones)
  "\\p{Default_Ignorable_Code_Point}\\p{Cf}\\u2800", // any other character that draws nothing (or nothing but a blank), in any plane
].join("");
const HIDDEN = new RegExp(`[${HIDDEN_SOURCE}]`, "gu");

/** `\u202E`, or `\u{E0041}` beyond the basic plane: the character's code, as a person can read it. */
export function escapeOf(ch: string): string {
  const code = ch.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/** `text` split into what shows as it is and the hidden characters, each as its escape. */
export function revealHidden(text: string): Revealed {
  const parts: RevealedPart[] = [];
  let hidden = 0;
  let last = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index), hidden: false });
    parts.push({ text: escapeOf(m[0]), hidden: true });
    hidden++;
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hidden: false });
  return { parts, hidden };
}

import { describe, expect, it } from "vitest";
import { escapeOf, revealHidden } from "./reveal-hidden";

const shown = (text: string) =>
  revealHidden(text)
    .parts.map((p) => (p.hidden ? `[${p.text}]` : p.text))
    .join("");

describe("revealHidden: what the person reads is what runs", () => {
  it("leaves ordinary text, newlines, tabs and emoji as they are", () => {
    const text = "git push origin main\n\techo 'héllo — 世界 😀'";
    expect(revealHidden(text)).toEqual({ parts: [{ text, hidden: false }], hidden: 0 });
    expect(revealHidden("")).toEqual({ parts: [], hidden: 0 });
  });

  it("shows bidi embeddings, overrides, isolates and marks by their codes", () => {
    // "rm -rf ~ #" reversed by an override reads as a harmless comment on screen.
    expect(shown("echo ok \u202E# ~ fr- mr\u202C")).toBe("echo ok [\\u202E]# ~ fr- mr[\\u202C]");
    const bidi = [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c,
    ];
    for (const c of bidi) expect(revealHidden(`a${String.fromCodePoint(c)}b`).hidden).toBe(1);
  });

  it("shows zero-width characters, word joiners, the BOM and tag characters", () => {
    expect(shown("cu\u200Brl e\u200Cv\u200Di\u2060l\uFEFF")).toBe(
      "cu[\\u200B]rl e[\\u200C]v[\\u200D]i[\\u2060]l[\\uFEFF]",
    );
    // Tag characters spell invisible ASCII (text smuggled past a reader): astral codes keep their braces.
    expect(shown("ok\u{E0063}\u{E0075}")).toBe("ok[\\u{E0063}][\\u{E0075}]");
  });

  it("shows control characters but newline and tab: carriage return, escape, NUL, DEL, C1", () => {
    expect(shown("safe\rrm -rf /")).toBe("safe[\\u000D]rm -rf /");
    expect(shown("\u001b[2Kls\u0000\u007f\u0085\u009b")).toBe(
      "[\\u001B][2Kls[\\u0000][\\u007F][\\u0085][\\u009B]",
    );
    expect(revealHidden("a\nb\tc").hidden).toBe(0);
  });

  it("shows spaces a shell would not split on, line separators, soft hyphens and lone surrogates", () => {
    expect(shown("rm\u00A0-rf\u2003x\u3000y")).toBe("rm[\\u00A0]-rf[\\u2003]x[\\u3000]y");
    expect(shown("a\u2028b\u00ADc\uD800")).toBe("a[\\u2028]b[\\u00AD]c[\\uD800]");
  });

  it("shows every other character that draws nothing: default-ignorable and format characters, the Braille blank", () => {
    // Mongolian variation selector, musical beam controls, shorthand format controls, Egyptian format controls, Arabic number sign.
    for (const c of [0x180b, 0x180f, 0x1d173, 0x1d17a, 0x1bca0, 0x13430, 0x0600, 0x2800, 0xfff0]) {
      expect(revealHidden(`git push origin ma${String.fromCodePoint(c)}in`).hidden, c.toString(16)).toBe(1);
    }
  });

  it("counts each hidden character and keeps the text around them whole", () => {
    const r = revealHidden("\u202E\u202Eabc\u200B");
    expect(r.hidden).toBe(3);
    expect(r.parts).toEqual([
      { text: "\\u202E", hidden: true },
      { text: "\\u202E", hidden: true },
      { text: "abc", hidden: false },
      { text: "\\u200B", hidden: true },
    ]);
    expect(escapeOf("\u{E0100}")).toBe("\\u{E0100}");
  });
});

// Comments and documents point only into the repository: a reader has this repository and
// nothing else, so "see section 3 of a document you do not have", or a tracker's ticket number,
// tells them nothing. The protocol is written down in docs/protocol/; cite it there. This scans
// every tracked text file for the shapes such citations take.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");

/** What a citation of something outside the repository looks like; each with what to do instead. */
export const OUTSIDE_CITATIONS: { pattern: RegExp; instead: string }[] = [
  { pattern: /\bseeds? ?0\d\d\b/i, instead: "point to the docs/protocol/ document that states the rule" },
  { pattern: /\bthe seed(?:'s|s'|s)(?=\W)/i, instead: "say 'the protocol' and point into docs/protocol/" },
  {
    pattern: /\bseed(?: |-(?=doc))(?:document|doc|format|spec)s?\b/i,
    instead: "say 'the protocol's file formats'",
  },
  { pattern: /shared\/seeds|\/work\/(?:shared|briefs)\b/, instead: "point into the repository" },
  // A section sign, except after a public standard's name (RFC 8188 §2).
  {
    pattern: /(?<!\b(?:RFC|UTS) #?\d{1,5} )\u00a7/,
    instead: "point to a heading of docs/protocol/ (file.md#anchor)",
  },
  { pattern: /\bissues? #?\d+\b|\bspine issue\b/i, instead: "drop the ticket number: say why, in words" },
  {
    pattern: /\b(?:PR|pull request) #?\d+\b|\(#\d+\)/i,
    instead: "drop the ticket number: say why, in words",
  },
];

const BINARY = /\.(png|ico|jpe?g|gif|webp|woff2?|ttf|wasm|zip|gz)$/i;
/** This file: its second case quotes citations on purpose. */
const SELF = "server/no-outside-citations.test.ts";

/** Every tracked text file, with its lines. */
function trackedTexts(): { file: string; lines: string[] }[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  const out: { file: string; lines: string[] }[] = [];
  for (const file of files) {
    if (BINARY.test(file) || file === SELF) continue;
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), "utf8");
    } catch {
      continue; // tracked but deleted in the working tree
    }
    if (!text.includes("\0")) out.push({ file, lines: text.split("\n") });
  }
  return out;
}

/** `file:line: text (instead)` for each line that cites something outside the repository. */
export function outsideCitations(files: { file: string; lines: string[] }[]): string[] {
  const found: string[] = [];
  for (const { file, lines } of files) {
    lines.forEach((line, i) => {
      const hit = OUTSIDE_CITATIONS.find((c) => c.pattern.test(line));
      if (hit) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)} (${hit.instead})`);
    });
  }
  return found;
}

describe("comments and documents cite only the repository", () => {
  it("no tracked file cites a document outside the repository or a ticket number", () => {
    const files = trackedTexts();
    expect(files.length).toBeGreaterThan(100);
    expect(outsideCitations(files)).toEqual([]);
  });

  const apart = (...parts: string[]) => parts.join(" ");
  // The sample citations are written in pieces, so this file itself cites nothing a checker could
  // trip on; `apart` joins them back.
  it("knows the shapes of such citations, and leaves alone what only looks like one", () => {
    const cites = (line: string) => outsideCitations([{ file: "f.ts", lines: [line] }]).length === 1;
    for (const line of [
      apart("// Runs are transactions (seed", "002 §3): a verified commit"),
      apart("/** Seed", "001: the Chair is the unique decision authority */"),
      ["// names the seed (../shared", "/seeds) and section it comes from."].join(""),
      ["// as the brief in /work", "/briefs/ says"].join(""),
      "/** numbered like the seed's task_001 */",
      "The seed-document endpoints take the document itself",
      apart("// Budgets that act (issue", "16; the cost controller)"),
      apart("// Issue", "11 §2: every request body is capped"),
      apart("| budgets (001, issue", "16) |"),
      "/** Envelope shared by all events (spine issue fields). */",
      ["// fixed in #", "26's follow-up (#", "27)"].join(""),
      "// see §4.2",
    ]) {
      expect(cites(line), line).toBe(true);
    }
    for (const line of [
      'import { Badge } from "../shared/ui";',
      "/** RFC 8291 §3.4 and RFC 8188 §2: one aes128gcm record */",
      "confusable skeletons (UTS #39), so a look-alike is refused",
      'expect(shape(items)).toEqual(["checkpoint#11", "usage.reported#12"]);',
      'await expect(label).toHaveText("as of #4");',
      "const seed = (name: string) => readFileSync(name);",
      "fc.sample(step, { numRuns: 1200, seed: 12 })",
      "// The cadence watchdog (docs/protocol/pods-and-modes.md#checkpoints-and-cadence).",
      "import { ZPlanJson } from './seed-formats';",
      "// Inline CSS cannot run script; the risk is in scripts.",
    ]) {
      expect(cites(line), line).toBe(false);
    }
  });
});

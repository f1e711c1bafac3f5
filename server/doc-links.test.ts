// The README, ARCHITECTURE.md and every document under docs/ point into the repository: their links must
// land on a file and a heading that exist, and every file ARCHITECTURE.md names must exist, so a map
// that names a moved or deleted file fails here instead of sending a reader to look for it.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { headingAnchors } from "./testing/markdown-anchors";

const ROOT = resolve(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
  cwd: ROOT,
  encoding: "utf8",
})
  .split("\0")
  .filter((f) => f && existsSync(join(ROOT, f))); // a file deleted in the working tree is gone
/** Every markdown document a reader is sent to: the two at the root and all of docs/ (new files too). */
const DOCS = tracked.filter((f) => f === "README.md" || f === "ARCHITECTURE.md" || /^docs\/.*\.md$/.test(f));

/** The anchors of a markdown file's headings (code blocks skipped: a `# comment` there is no heading). */
const anchors = (file: string) => headingAnchors(read(file).replace(/^```[\s\S]*?^```/gm, ""));

/** `target` of each `[text](target)` outside code blocks. */
function links(file: string): string[] {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Why a link from `from` does not land, or null when it does. */
function broken(from: string, target: string): string | null {
  if (/^[a-z]+:/i.test(target)) return null; // another site: not ours to check
  const [path, anchor] = target.split("#") as [string, string | undefined];
  const file = path ? join(dirname(from), path) : from;
  if (!resolve(ROOT, file).startsWith(ROOT) || !existsSync(join(ROOT, file)))
    return `${from}: ${target}: no such file`;
  if (anchor && file.endsWith(".md") && !anchors(file).has(anchor))
    return `${from}: ${target}: no such heading`;
  return null;
}

describe("README.md, ARCHITECTURE.md and docs/", () => {
  it("link only to files and headings that exist", () => {
    expect(DOCS).toEqual(expect.arrayContaining(["README.md", "docs/api.md", "docs/agents/claude-code.md"]));
    const found = DOCS.flatMap((doc) => links(doc).map((t) => broken(doc, t))).filter(Boolean);
    expect(found).toEqual([]);
  });

  it("knows a link that lands from one that does not", () => {
    expect(broken("README.md", "#connect-claude-code")).toBeNull();
    expect(broken("README.md", "docs/api.md")).toBeNull();
    expect(broken("docs/agents/codex.md", "../../README.md#connect-claude-code")).toBeNull();
    expect(broken("docs/agents/codex.md", "gated-tools.md#one-policy-for-every-agent")).toBeNull();
    expect(broken("docs/agents/codex.md", "../../README.md#no-such-heading")).toMatch(/no such heading/);
    expect(broken("docs/agents/codex.md", "docs/api.md")).toMatch(/no such file/);
    expect(broken("README.md", "#no-such-heading")).toMatch(/no such heading/);
    expect(broken("README.md", "docs/no-such-file.md")).toMatch(/no such file/);
    expect(broken("README.md", "https://www.standardwebhooks.com/")).toBeNull();
  });
});

describe("ARCHITECTURE.md", () => {
  /** Whether a tracked file is, or a tracked folder holds, `path`: from the root, or from a folder the map named beside it. */
  const inRepo = (path: string) =>
    tracked.some(
      (f) => f === path || f.startsWith(`${path}/`) || f.endsWith(`/${path}`) || f.includes(`/${path}/`),
    );
  /** What the map names in backticks that reads as a file or a folder of the repository; patterns (`*`, `<feature>`) aside. */
  const named = [...read("ARCHITECTURE.md").matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1]!.replace(/\/$/, ""))
    .filter((t) => !/[*<>|{}]/.test(t))
    .filter(
      (t) =>
        /\.(ts|tsx|mjs|md|json|prisma)$/.test(t) ||
        /^(server|components|app|agent|e2e|bench|scripts|docs)\//.test(t),
    );

  it("names only files that exist", () => {
    expect(inRepo("server/realtime/tape-hub.ts") && inRepo("tape-hub.ts") && inRepo("server/jobs")).toBe(
      true,
    );
    expect(inRepo("server/http/no-such-routes.ts") || inRepo("no-such-routes.ts")).toBe(false);
    expect(named.length).toBeGreaterThan(100);
    const missing = named.filter((t) => !inRepo(t));
    expect(missing).toEqual([]);
  });
});

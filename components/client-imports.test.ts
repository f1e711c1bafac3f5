// The browser takes from server/ only types, the zod-free vocabulary (with reveal-hidden, which
// the notifications share), and the server actions (which Next turns into references): no
// schema, no zod, no I/O.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ALLOWED = ["server/wire/vocabulary", "server/wire/reveal-hidden", "server/web/server-actions"];

const clientFiles = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? clientFiles(path.join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test(-d)?\.ts$/.test(e.name)
        ? [path.join(dir, e.name)]
        : [],
  );

/** The modules a file imports at run time: `import type …` and all-`type` specifier lists are erased. */
const runtimeImports = (source: string): string[] =>
  [
    ...source.matchAll(
      /^import\s+(type\s+)?([^"';]*?)\s*from\s*["']([^"']+)["']|^import\s*["']([^"']+)["']/gm,
    ),
  ].flatMap((m) => {
    if (m[4]) return [m[4]];
    if (m[1]) return [];
    const names = m[2]!
      .replace(/^\{|\}$/g, "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    return names.length > 0 && names.every((n) => n.startsWith("type ")) ? [] : [m[3]!];
  });

const toRepoPath = (file: string, spec: string) =>
  spec.startsWith("@/")
    ? spec.slice(2)
    : spec.startsWith(".")
      ? path.posix.join(path.posix.dirname(file), spec)
      : null;

describe("client components", () => {
  it("import from server/ only types, the vocabulary and the server actions", () => {
    const offenders = clientFiles("components").flatMap((file) =>
      runtimeImports(readFileSync(path.join(ROOT, file), "utf8"))
        .map((spec) => toRepoPath(file, spec))
        .filter((p): p is string => p !== null && p.startsWith("server/") && !ALLOWED.includes(p))
        .map((p) => `${file} → ${p}`),
    );
    expect(offenders).toEqual([]);
  });
});

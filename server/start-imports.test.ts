// What a server loads to start is resident for as long as it runs: packages only a rare path needs
// (a push, a mail, the agent kit's bundle, the web build's fingerprint, a remote MCP session) are
// imported where they are first used, so an idle server does not hold them. This walks the import
// graph from server/main.ts along static imports only, as Node loads it at start.
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const LOADED_ON_FIRST_USE = ["web-push", "nodemailer", "esbuild", "@modelcontextprotocol/sdk"];

/** The packages reached from `entry` through static imports (dynamic import() edges are not followed). */
function packagesLoadedAtStart(metafile: Metafile, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const packages = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    for (const edge of metafile.inputs[queue.pop()!]?.imports ?? []) {
      if (edge.kind === "dynamic-import") continue;
      if (edge.external) packages.add(edge.path);
      else if (!seen.has(edge.path)) {
        seen.add(edge.path);
        queue.push(edge.path);
      }
    }
  }
  return packages;
}

describe("the server's start", () => {
  it("loads no package that only a rare path uses", async () => {
    const result = await build({
      entryPoints: [`${ROOT}server/main.ts`],
      bundle: true,
      platform: "node",
      format: "esm",
      packages: "external",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const entry = Object.keys(result.metafile.inputs).find((f) => f.endsWith("server/main.ts"))!;
    const atStart = [...packagesLoadedAtStart(result.metafile, entry)];
    expect(atStart).toContain("socket.io"); // the walk did reach the realtime door
    expect(
      atStart.filter((p) => LOADED_ON_FIRST_USE.some((name) => p === name || p.startsWith(`${name}/`))),
    ).toEqual([]);
  });
});

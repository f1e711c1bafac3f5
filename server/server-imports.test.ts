// What the custom server imports, read off one esbuild walk from server/main.ts (nothing written).
// - The custom server loads its modules before Next starts, and Next's request APIs (next/headers,
//   next/navigation) fail outright there ("AsyncLocalStorage accessed in runtime where it is not
//   available"): nothing it imports may reach them. Server actions and pages get them through
//   server/web/operation-action.ts and current-identity.ts, which only Next's bundles import.
// - What a server loads to start is resident for as long as it runs: packages only a rare path
//   needs (a push, a mail, the agent kit's bundle, a remote MCP session) are imported where they
//   are first used, so an idle server does not hold them. Only static imports count there, as
//   Node loads them at start.
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";

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

describe("the custom server's imports", () => {
  let metafile: Metafile;
  beforeAll(async () => {
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
    metafile = result.metafile;
  });

  it("never reach Next's request APIs", () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((f) => f.endsWith("server/http/api-routes.ts"))).toBe(true); // the walk did reach the doors
    expect(
      inputs.filter((f) => /server\/web\/(operation-action|current-identity|server-actions)\.ts$/.test(f)),
    ).toEqual([]);
    const external = Object.values(metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(external.filter((p) => /^next\/(headers|navigation|cache)/.test(p))).toEqual([]);
  });

  it("load at start no package that only a rare path uses", () => {
    const entry = Object.keys(metafile.inputs).find((f) => f.endsWith("server/main.ts"))!;
    const atStart = [...packagesLoadedAtStart(metafile, entry)];
    expect(atStart).toContain("socket.io"); // the walk did reach the realtime door
    expect(
      atStart.filter((p) => LOADED_ON_FIRST_USE.some((name) => p === name || p.startsWith(`${name}/`))),
    ).toEqual([]);
  });
});

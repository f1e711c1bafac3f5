// The custom server loads its modules before Next starts, and Next's request APIs
// (next/headers, next/navigation) fail outright there ("AsyncLocalStorage accessed in
// runtime where it is not available"): nothing the custom server imports may reach
// them. Server actions and pages get them through server/web/operation-action.ts and
// current-identity.ts, which only Next's bundles import.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("the custom server's imports", () => {
  it("never reach Next's request APIs", async () => {
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
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((f) => f.endsWith("server/http/api-routes.ts"))).toBe(true); // the walk did reach the doors
    expect(
      inputs.filter((f) => /server\/web\/(operation-action|current-identity|server-actions)\.ts$/.test(f)),
    ).toEqual([]);
    const external = Object.values(result.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    expect(external.filter((p) => /^next\/(headers|navigation|cache)/.test(p))).toEqual([]);
  });
});

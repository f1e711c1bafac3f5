// The committed API reference and the browser's route map are what the operation tables render
// now (compared as the formatter would write both, so formatting the repository keeps them true).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { apiReference, browserRoutes } from "./api-reference";

const at = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

async function formatted(text: string, filepath: string) {
  return prettier.format(text, { ...(await prettier.resolveConfig(filepath)), filepath });
}

describe("the generated files", () => {
  for (const [path, render] of [
    ["docs/api.md", apiReference],
    ["components/shared/api-routes.ts", browserRoutes],
  ] as const) {
    it(`${path} is up to date (npx tsx scripts/write-api-docs.ts writes it)`, async () => {
      const file = at(path);
      expect(await formatted(readFileSync(file, "utf8"), file)).toBe(await formatted(render(), file));
    });
  }

  it("the reference lists every REST operation", () => {
    const text = apiReference();
    const routes = [...browserRoutes().matchAll(/"method":"(\w+)","path":"([^"]+)"/g)];
    expect(routes.length).toBeGreaterThan(0);
    for (const m of routes) expect(text).toContain(`### \`${m[1]} ${m[2]}\``);
  });
});

// `npm start` rebuilds exactly when something the Next build reads changed: a tiny app on real
// files, with a stand-in for `next build` (a real one takes minutes).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "./ensure-build";
import { readBuildInputs } from "./build-inputs";
import { ROOT } from "./start-server";

const FILES: Record<string, string> = {
  "package.json": '{ "name": "tiny" }',
  "package-lock.json": '{ "lockfileVersion": 3 }',
  "next.config.ts": "export default {};",
  "postcss.config.mjs": "export default { plugins: {} };",
  "tsconfig.json": '{ "compilerOptions": { "jsx": "react-jsx", "paths": { "@/*": ["./*"] } } }',
  "app/globals.css": '@import "tailwindcss";\n@import "./theme.css";',
  "app/theme.css": ":root { --x: 1; }",
  "app/layout.tsx":
    'import "./globals.css";\nimport { Nav } from "@/components/nav";\nexport default function L({ children }: { children: unknown }) { return <html><body><Nav />{children as never}</body></html>; }',
  "app/page.tsx":
    'import { loadBoard } from "@/server/web/load-board";\nexport default async function P() { return <p>{await loadBoard()}</p>; }',
  "app/icon.svg": "<svg/>",
  "components/nav.tsx":
    'import logo from "./logo.png";\nexport function Nav() { return <img src={logo} />; }',
  "components/logo.png": "png-bytes",
  "server/web/load-board.ts":
    'import { rule } from "../domain/rules";\nimport type { Unused } from "../pods/types";\nexport async function loadBoard(): Promise<string> { return rule(); }',
  "server/domain/rules.ts": 'export const rule = () => "v1";',
  "server/domain/rules.test.ts": 'import { rule } from "./rules";\nrule();',
  "server/domain/unused.ts": "export const nobodyImportsMe = 1;",
  "server/pods/types.ts": "export type Unused = number;",
  "agent/cli/main.ts": 'import { rule } from "../../server/domain/rules";\nrule();',
  "README.md": "# tiny",
};

describe("ensureBuild", () => {
  let root: string;
  let builds = 0;
  let fail = false;
  const fakeNextBuild = (dir: string) => {
    builds++;
    mkdirSync(join(dir, ".next"), { recursive: true });
    if (fail) throw new Error("next build failed");
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  /** Did a start after this change rebuild? */
  const rebuiltAfter = async (change: () => void) => {
    change();
    const before = builds;
    await ensureBuild(root, fakeNextBuild);
    return builds - before === 1;
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "podwatch-build-"));
    for (const [path, text] of Object.entries(FILES)) write(path, text);
    await ensureBuild(root, fakeNextBuild); // the first start builds
    expect(builds).toBe(1);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("does not rebuild when nothing changed", async () => {
    expect(await rebuiltAfter(() => {})).toBe(false);
  });

  it("rebuilds when a server file the pages import changes, however deep", async () => {
    expect(await rebuiltAfter(() => write("server/domain/rules.ts", 'export const rule = () => "v2";'))).toBe(
      true,
    );
    expect(
      await rebuiltAfter(() =>
        write("server/web/load-board.ts", FILES["server/web/load-board.ts"] + "\n// edited"),
      ),
    ).toBe(true);
    expect(
      await rebuiltAfter(() => write("components/nav.tsx", FILES["components/nav.tsx"] + "\n// edited")),
    ).toBe(true);
    expect(await rebuiltAfter(() => write("app/theme.css", ":root { --x: 2; }"))).toBe(true);
    expect(await rebuiltAfter(() => write("components/logo.png", "new-png-bytes"))).toBe(true);
  });

  it("does not rebuild for files the build never reads", async () => {
    expect(
      await rebuiltAfter(() =>
        write("server/domain/rules.test.ts", FILES["server/domain/rules.test.ts"] + "\n// edited"),
      ),
    ).toBe(false);
    expect(
      await rebuiltAfter(() => write("server/domain/unused.ts", "export const nobodyImportsMe = 2;")),
    ).toBe(false);
    expect(await rebuiltAfter(() => write("agent/cli/main.ts", "// the CLI is not in the web bundle"))).toBe(
      false,
    );
    expect(await rebuiltAfter(() => write("server/pods/types.ts", "export type Unused = string;"))).toBe(
      false,
    ); // imported for types only
    expect(await rebuiltAfter(() => write("README.md", "# tiny, documented"))).toBe(false);
  });

  it("rebuilds for a new route and a newly imported file", async () => {
    expect(
      await rebuiltAfter(() =>
        write("app/inbox/page.tsx", "export default function I() { return <p>inbox</p>; }"),
      ),
    ).toBe(true);
    expect(
      await rebuiltAfter(() =>
        write("app/page.tsx", FILES["app/page.tsx"] + '\nimport "@/server/domain/unused";'),
      ),
    ).toBe(true);
    expect(
      await rebuiltAfter(() => write("server/domain/unused.ts", "export const nobodyImportsMe = 3;")),
    ).toBe(true); // now it is read
  });

  it("rebuilds when the build's configuration or dependencies change", async () => {
    for (const file of [
      "package-lock.json",
      "package.json",
      "next.config.ts",
      "postcss.config.mjs",
      "tsconfig.json",
    ]) {
      expect(await rebuiltAfter(() => write(file, FILES[file] + "\n")), file).toBe(true);
    }
    expect(await rebuiltAfter(() => write(".env.production", "NEXT_PUBLIC_X=1"))).toBe(true); // appeared
    expect(await rebuiltAfter(() => rmSync(join(root, ".env.production")))).toBe(true); // and went away
  });

  it("keeps rebuilding after a failed build, even if the sources go back", async () => {
    fail = true;
    await expect(ensureBuild(root, fakeNextBuild)).resolves.toBe(false); // nothing changed: no build tried
    write("server/domain/rules.ts", 'export const rule = () => "broken";');
    await expect(ensureBuild(root, fakeNextBuild)).rejects.toThrow("next build failed");
    fail = false;
    expect(await rebuiltAfter(() => write("server/domain/rules.ts", 'export const rule = () => "v2";'))).toBe(
      true,
    );
    expect(await rebuiltAfter(() => {})).toBe(false);
  });
});

describe("readBuildInputs on this repository", () => {
  it("follows the pages into the server code they bundle, and nothing else", async () => {
    const inputs = await readBuildInputs(ROOT);
    for (const f of [
      "app/layout.tsx",
      "app/globals.css",
      "components/pod/task-board.tsx",
      "server/wire/vocabulary.ts",
      "server/web/operation-action.ts",
      "server/access/resolve-identity.ts",
      "server/domain/errors.ts",
      "package-lock.json",
      "next.config.ts",
      "postcss.config.mjs",
      "tsconfig.json",
    ]) {
      expect(inputs).toContain(f);
    }
    // The agent-kit files the browser bundles: the hook entries the connect snippets show (what
    // podwatch hooks install writes for Claude Code, Codex and Gemini CLI; pure).
    expect(inputs).toContain("agent/hooks/our-hooks.ts");
    expect(
      inputs.filter(
        (f) =>
          /\.test\.|^agent\/(?!hooks\/(settings-snippet|settings-merge|our-hooks|codex-hooks|gemini-settings-snippet)\.ts$)/.test(
            f,
          ) || f.startsWith("node_modules"),
      ),
    ).toEqual([]);
  });
});

// What `next build` reads, so `npm start` can tell whether its last build is still current.
// Next bundles every page, layout and route under app/ together with all they import, however
// deep (components/, server/web, server/domain, …); esbuild walks the same import graph from the
// same entries in a few tens of milliseconds. Imports used only as types are dropped by both, so
// they do not count. Tailwind also scans the repository for class names, but only classes in
// files the pages render can reach the page, and those files are in the graph.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Read by the build whether or not they exist (a file that appears or goes away changes it). */
const CONFIG = [
  "package.json",
  "package-lock.json",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  ".env",
  ".env.local",
  ".env.production",
  ".env.production.local",
];
/** Next's own entry points outside app/: bundled when present. */
const ROOT_ENTRIES = ["proxy", "middleware", "instrumentation", "instrumentation-client"].flatMap((n) => [
  `${n}.ts`,
  `${n}.tsx`,
  `${n}.js`,
]);
const CODE = /\.(tsx?|jsx?|mjs|cjs|css)$/;
const PARSED = /\.(tsx?|jsx?|mjs|cjs|json|css)$/;
const TEST = /\.(test|spec)\.[^.]+$/;

function filesUnder(root: string, dir: string): string[] {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    return e.isDirectory() ? filesUnder(root, path) : e.isFile() ? [path] : [];
  });
}

/** The files the web build reads, relative to `root`, sorted. Throws when the graph cannot be read (e.g. a syntax error). */
export async function readBuildInputs(root: string): Promise<string[]> {
  const app = filesUnder(root, "app").filter((f) => !TEST.test(f));
  const entries = [
    ...app.filter((f) => CODE.test(f)),
    ...ROOT_ENTRIES.filter((f) => existsSync(join(root, f))),
  ];
  // esbuild is loaded here, not at start: a server without the web UI never needs it.
  const { build, stop } = await import("esbuild");
  const graph = await build({
    entryPoints: entries,
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    packages: "external", // covered by package-lock.json
    platform: "node",
    format: "esm",
    outdir: "out",
    logLevel: "silent",
    // Images, fonts and other assets the code imports: read, not parsed.
    plugins: [
      {
        name: "assets",
        setup: (b) =>
          b.onLoad({ filter: /.*/ }, ({ path }) =>
            PARSED.test(path) ? undefined : { contents: "", loader: "empty" },
          ),
      },
    ],
  }).finally(() => stop()); // esbuild's helper process would otherwise live as long as the server
  const read = Object.keys(graph.metafile.inputs).filter((f) => !f.includes(":")); // namespaced virtual modules are not files
  return [...new Set([...app, ...read, ...filesUnder(root, "public"), ...CONFIG])].sort();
}

/** One hash over the inputs' names and contents (a missing file counts as missing). */
export function fingerprintInputs(root: string, inputs: string[]): string {
  const h = createHash("sha256");
  for (const f of inputs) {
    const path = join(root, f);
    const content = existsSync(path)
      ? createHash("sha256").update(readFileSync(path)).digest("hex")
      : "absent";
    h.update(`${f}\0${content}\n`);
  }
  return h.digest("hex");
}

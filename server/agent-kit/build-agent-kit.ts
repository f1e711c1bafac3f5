// The agent kit as an npm package built from agent/: the CLI, the hook fast path and the MCP server
// bundled by esbuild with every dependency inside, so `npm install -g <server>/agent/podwatch.tgz`
// gives `podwatch` with Node only (no clone, no registry). Its name is in the team's own scope, so
// the same tarball can be published to a registry later without naming anyone else's package.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tarball, type TarFile } from "./tarball";

export const KIT_NAME = "@podwatch/agent";

export type AgentKit = { name: string; version: string; bytes: Buffer; etag: string };

/** ESM bundles of CommonJS packages may still call `require` for Node's own modules. */
const REQUIRE_BANNER =
  'import { createRequire as __podwatchRequire } from "node:module"; const require = __podwatchRequire(import.meta.url);';

function manifest(version: string): string {
  const pkg = {
    name: KIT_NAME,
    version,
    description:
      "podwatch's agent kit: the podwatch CLI, its Claude Code hooks and its MCP server over stdio",
    type: "module",
    bin: { podwatch: "bin/podwatch.mjs" },
    files: ["bin", "dist"],
    engines: { node: ">=20" },
    license: "UNLICENSED",
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const README = `# ${KIT_NAME}

The \`podwatch\` command for an agent's machine: run \`podwatch --help\`. It needs PODWATCH_URL
(the podwatch server) and PODWATCH_TOKEN (the agent's token). Built by the podwatch server from its
own sources; no dependencies.
`;

/** Packs the kit from the sources under `root` (a checkout or the image's /app). Seconds of esbuild, off the event loop. */
export async function buildAgentKit(root: string): Promise<AgentKit> {
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
  // esbuild writes the bundles itself, into a folder of our own, and they are read back on libuv's
  // pool: its answer then carries no file, so the event loop decodes none of their ~1.5 MB.
  const out = await mkdtemp(join(tmpdir(), "podwatch-kit-"));
  const { build } = await import("esbuild"); // loaded on the first download, not by every server at start
  try {
    await build({
      entryPoints: { cli: "agent/cli/main.ts", hook: "agent/hooks/run-hook.ts" },
      absWorkingDir: root,
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outdir: out,
      outExtension: { ".js": ".mjs" },
      chunkNames: "chunk-[hash]",
      banner: { js: REQUIRE_BANNER },
      legalComments: "none",
      logLevel: "silent",
    });
    const names = (await readdir(out)).sort();
    const dist: TarFile[] = await Promise.all(
      names.map(async (name) => ({ path: `package/dist/${name}`, bytes: await readFile(join(out, name)) })),
    );
    return await pack(version, root, dist);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

async function pack(version: string, root: string, dist: TarFile[]): Promise<AgentKit> {
  const files: TarFile[] = [
    { path: "package/package.json", bytes: Buffer.from(manifest(version)) },
    { path: "package/README.md", bytes: Buffer.from(README) },
    {
      path: "package/bin/podwatch.mjs",
      bytes: await readFile(join(root, "agent/kit/podwatch.mjs")),
      mode: 0o755,
    },
    ...dist,
  ];
  const bytes = await tarball(files);
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return { name: KIT_NAME, version, bytes, etag };
}

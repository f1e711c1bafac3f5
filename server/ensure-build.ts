// `npm start` builds when needed: no build yet, or sources newer than the build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SOURCES = ["app", "components", "server/wire", "public", "next.config.ts", "package-lock.json", "postcss.config.mjs"];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIsStale(root: string): boolean {
  // Our own marker, written only after a build succeeded: a failed build can leave Next's BUILD_ID behind.
  const marker = join(root, ".next", "podwatch-build-ok");
  if (!existsSync(marker)) return true;
  const built = statSync(marker).mtimeMs;
  return SOURCES.some((s) => newestMtime(join(root, s)) > built);
}

export function ensureBuild(root: string) {
  if (!buildIsStale(root)) return;
  console.log("podwatch: building the web app (first start or sources changed)…");
  const r = spawnSync(join(root, "node_modules", ".bin", "next"), ["build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed (see the output above)");
  writeFileSync(join(root, ".next", "podwatch-build-ok"), new Date().toISOString());
}

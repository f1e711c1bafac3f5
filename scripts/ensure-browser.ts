// `npm run test:e2e` runs this before Playwright: on a machine without a usable Chromium it runs
// Playwright's own browser install (once; later runs find it there), never where one exists.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { ensureChromium } from "./e2e-browser";

const cli = createRequire(import.meta.url).resolve("@playwright/test/cli");
try {
  const browser = ensureChromium(
    process.env,
    existsSync,
    (args) => spawnSync(process.execPath, [cli, ...args], { stdio: "inherit" }).status ?? 1,
  );
  console.log(`e2e: using ${browser}`);
} catch (e) {
  console.error(`e2e: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}

// The one rule for the e2e tests' browser, used by playwright.config.ts and by `npm run test:e2e`
// before it starts Playwright (ensure-browser.ts): CHROMIUM_PATH when set; else the system's
// Chromium, for machines where Playwright cannot download browsers (CI containers); else
// Playwright's own Chromium, which its installer fetches once (and skips when it is there).
import { existsSync } from "node:fs";

export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

type Env = Record<string, string | undefined>;
export type ChromiumChoice = { executablePath: string | undefined; install: boolean };

export function chooseChromium(
  env: Env = process.env,
  exists: (path: string) => boolean = existsSync,
): ChromiumChoice {
  const wanted = env.CHROMIUM_PATH;
  if (wanted) {
    // Asked for by name: running the tests in some other browser instead would hide the mistake.
    if (!exists(wanted))
      throw new Error(
        `CHROMIUM_PATH=${wanted} does not exist (unset it to use ${SYSTEM_CHROMIUM} or Playwright's own Chromium)`,
      );
    return { executablePath: wanted, install: false };
  }
  if (exists(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, install: false };
  return { executablePath: undefined, install: true };
}

/** Gets the chosen browser; `playwright` runs Playwright's CLI with these arguments and returns its exit code. Returns what the tests will use. */
export function ensureChromium(
  env: Env,
  exists: (path: string) => boolean,
  playwright: (args: string[]) => number,
): string {
  const choice = chooseChromium(env, exists);
  if (choice.executablePath) return choice.executablePath;
  if (playwright(["install", "chromium"]) !== 0) {
    throw new Error(
      `could not install Playwright's Chromium; install a Chromium and set CHROMIUM_PATH to it (or put one at ${SYSTEM_CHROMIUM})`,
    );
  }
  return "Playwright's Chromium";
}

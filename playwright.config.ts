import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { E2E_ADMIN_TOKEN } from "./e2e/constants";
import { chooseChromium } from "./scripts/e2e-browser";

// A port of this run's own (workers inherit the environment, so they agree on it):
// two runs on one machine must not talk to each other's server.
process.env.E2E_PORT ??= String(3200 + (process.pid % 700));
const PORT = Number(process.env.E2E_PORT);
// One data folder per run, shared with the workers (each loads this file again).
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "podwatch-e2e-"));
const dataDir = process.env.E2E_DATA_DIR;
// CHROMIUM_PATH, else the system's Chromium, else Playwright's own (`npm run test:e2e` installs it first).
const { executablePath } = chooseChromium();

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  webServer: {
    // The console is kept in the run's folder too: a first start prints the admin's
    // one-time password there, and e2e/first-pod.spec.ts signs in with it like a new team lead.
    // The test launcher is server/main.ts plus the test knobs below (server/testing/test-knobs.ts).
    command: `node --import tsx server/testing/test-main.ts | tee '${join(dataDir, "server.log")}'`,
    url: `http://127.0.0.1:${PORT}/readyz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PODWATCH_DEMO: "0",
      DATABASE_URL: `file:${join(dataDir, "e2e.db")}`,
      NEXT_TELEMETRY_DISABLED: "1",
      PODWATCH_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      PODWATCH_SIGN_INS_PER_MINUTE: "1000",
      PODWATCH_PUSH_INSECURE_LOOPBACK: "1",
      PODWATCH_WEBHOOK_ALLOW_PRIVATE: "1",
      PODWATCH_DEADLINE_MIN_MS: "1000",
    },
  },
});

// The server never signs sessions with anything but its own secret: a torn
// secret file stops it at start with a clear message.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../config";
import { startServer } from "../start-server";
import type { Config } from "../config";
import { createAuth } from "./create-auth";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function configIn(dir: string): Config {
  return readConfig({ DATABASE_URL: `file:${join(dir, "tape.db")}`, PORT: "0", HOST: "127.0.0.1", PODWATCH_DEMO: "0", PODWATCH_WEB: "0" });
}

describe("the auth secret at start", () => {
  it("refuses to start on an empty data/auth-secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-secret-"));
    dirs.push(dir);
    writeFileSync(join(dir, "auth-secret"), "");
    await expect(startServer(configIn(dir))).rejects.toThrow(/auth-secret[\s\S]*not a valid secret[\s\S]*delete/i);
  });

  it("starts with a generated secret and keeps it across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-secret-"));
    dirs.push(dir);
    const first = await startServer(configIn(dir));
    const secret = first.app.config.authSecret;
    await first.close();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const second = await startServer(configIn(dir));
    expect(second.app.config.authSecret).toBe(secret);
    await second.close();
  });

  it("never builds Better Auth without a secret of its own", () => {
    const config = configIn("/nonexistent");
    expect(() => createAuth({ ...config, authSecret: undefined }, null as never)).toThrow(/secret/);
    expect(() => createAuth({ ...config, authSecret: "" }, null as never)).toThrow(/secret/);
  });
});

// The server never signs sessions with anything but its own secret: a torn
// secret file stops it at start with a clear message. On SQLite the secret and the
// VAPID pair stay in the data folder, so an installation keeps its sessions and
// push devices across upgrades (PostgreSQL: shared-limits.integration.test.ts).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../config";
import { startServer } from "../start-server";
import type { Config } from "../config";
import { createAuth } from "./create-auth";
import webpush from "web-push";
import { api, TEST_ADMIN_TOKEN } from "../testing/test-server";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function configIn(dir: string): Config {
  return readConfig({
    DATABASE_URL: `file:${join(dir, "tape.db")}`,
    PORT: "0",
    HOST: "127.0.0.1",
    PODWATCH_DEMO: "0",
    PODWATCH_WEB: "0",
  });
}

describe("the auth secret at start", () => {
  it("refuses to start on an empty data/auth-secret", async () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-secret-"));
    dirs.push(dir);
    writeFileSync(join(dir, "auth-secret"), "");
    await expect(startServer(configIn(dir))).rejects.toThrow(
      /auth-secret[\s\S]*not a valid secret[\s\S]*delete/i,
    );
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

  it("an installation's files from before keep its sessions and push key valid across restarts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-secret-"));
    dirs.push(dir);
    // As an earlier podwatch left them in the data folder.
    const secret = randomBytes(32).toString("base64url");
    const pair = webpush.generateVAPIDKeys();
    writeFileSync(join(dir, "auth-secret"), `${secret}\n`, { mode: 0o600 });
    writeFileSync(join(dir, "vapid-keys.json"), `${JSON.stringify(pair)}\n`, { mode: 0o600 });
    const config = { ...configIn(dir), adminToken: TEST_ADMIN_TOKEN, signInsPerMinute: 100 };
    const first = await startServer(config);
    expect(first.app.config.authSecret).toBe(secret);
    expect(
      (
        await api(first.url, "POST", "/api/v1/users", {
          email: "ola@example.com",
          name: "Ola",
          password: "a long enough password",
        })
      ).status,
    ).toBe(201);
    const res = await fetch(`${first.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: first.url },
      body: JSON.stringify({ email: "ola@example.com", password: "a long enough password" }),
    });
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    await first.close();

    const second = await startServer(config);
    const push = await api(second.url, "GET", "/api/v1/me/push", undefined, { cookie });
    expect(push.status).toBe(200);
    expect(push.body.publicKey).toBe(pair.publicKey);
    await second.close();
  });

  it("never builds Better Auth without a secret of its own", () => {
    const config = configIn("/nonexistent");
    expect(() => createAuth({ ...config, authSecret: undefined }, null as never)).toThrow(/secret/);
    expect(() => createAuth({ ...config, authSecret: "" }, null as never)).toThrow(/secret/);
  });
});

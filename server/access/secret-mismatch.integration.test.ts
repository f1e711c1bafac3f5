// A node given PODWATCH_AUTH_SECRET (or a VAPID pair) in its environment uses it, but on
// PostgreSQL other nodes may use the installation's row: when the two differ, sessions (or
// pushes) do not cross nodes, and the node says so at start instead of failing silently.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import webpush from "web-push";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { TapeStore } from "../db/tape-store";
import { openStore } from "../db/open-store";
import { installationVapidKeys } from "../notify/vapid-keys";
import { createTestDatabase, type TestDatabase } from "../testing/test-databases";
import { installationAuthSecret } from "./secrets";

if (process.env.TEST_DATABASE_URL) {
  describe("an environment secret that differs from the installation's", () => {
    let db: TestDatabase;
    let store: TapeStore;
    let dir: string;
    beforeAll(async () => {
      db = await createTestDatabase("postgres");
      store = await openStore(db.url);
      dir = mkdtempSync(join(tmpdir(), "podwatch-secret-env-"));
    });
    afterAll(
      async () => (await store?.close(), await db?.drop(), rmSync(dir, { recursive: true, force: true })),
    );
    afterEach(() => vi.restoreAllMocks());

    it("is used, with a warning that sessions will not cross nodes; the same value says nothing", async () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const own = randomBytes(32).toString("base64url");
      expect(await installationAuthSecret(store, join(dir, "auth-secret"), own)).toBe(own);
      expect(warn).not.toHaveBeenCalled(); // no row yet: nothing to differ from
      const row = await installationAuthSecret(store, join(dir, "auth-secret")); // a node without it creates the row
      expect(row).not.toBe(own);
      expect(await installationAuthSecret(store, join(dir, "auth-secret"), own)).toBe(own);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /PODWATCH_AUTH_SECRET differs[\s\S]*will not be accepted/,
      );
      expect(await installationAuthSecret(store, join(dir, "auth-secret"), row)).toBe(row);
      expect(warn).toHaveBeenCalledTimes(1);
    });

    it("the same for a VAPID pair", async () => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const subject = "mailto:a@b.c";
      const row = await installationVapidKeys(store, join(dir, "vapid.json"), { subject });
      const env = webpush.generateVAPIDKeys();
      expect(await installationVapidKeys(store, join(dir, "vapid.json"), { ...env, subject })).toEqual({
        ...env,
        subject,
      });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/VAPID[\s\S]*differs[\s\S]*pushes/);
      expect(
        await installationVapidKeys(store, join(dir, "vapid.json"), {
          publicKey: row.publicKey,
          privateKey: row.privateKey,
          subject,
        }),
      ).toEqual(row);
      expect(warn).toHaveBeenCalledTimes(1);
    });
  });
}

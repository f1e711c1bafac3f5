// Two nodes on one PostgreSQL are one installation: a budget spent on node A is spent on node B
// (API requests per key, failed authentications, Better Auth's sign-in throttle), a session made
// on A is good on B with no PODWATCH_AUTH_SECRET set, both push with one VAPID pair, and a node
// upgraded from keeping its secrets in files keeps them. Real PostgreSQL (TEST_DATABASE_URL);
// on SQLite (one node) everything stays in memory and in the data folder.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { randomBytes } from "node:crypto";
import webpush from "web-push";
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "../config";
import { startServer, type RunningServer } from "../start-server";
import { openStore } from "../db/open-store";
import { agentPod, api, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { createTestDatabase, rawSql, type TestDatabase } from "../testing/test-databases";
import { installationAuthSecret } from "./secrets";
import { installationVapidKeys } from "../notify/vapid-keys";
import { createLimits } from "./rate-limiters";
import { BatchedSharedLimiter } from "./batched-limiter";

/** The request budget's windows are minutes of the wall clock: a test that must stay in one starts well inside it. */
async function awayFromMinuteEdge() {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 5000) await new Promise((r) => setTimeout(r, left + 50));
}

const PASSWORD = "a long enough password";

async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  return {
    status: res.status,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

describe("on SQLite (one node)", () => {
  it("counts in memory and keeps the installation's secrets in the data folder, not in the database", async () => {
    const db = await createTestDatabase("sqlite");
    const s = await startServer(
      readConfig({
        DATABASE_URL: db.url,
        PORT: "0",
        HOST: "127.0.0.1",
        PODWATCH_DEMO: "0",
        PODWATCH_WEB: "0",
        PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        PODWATCH_RATE_LIMIT_PER_MINUTE: "3",
      }),
    );
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await api(s.url, "GET", "/api/v1/pods")).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await rawSql(db, `SELECT key FROM rate_limit`)).toEqual([]);
      expect(await rawSql(db, `SELECT name FROM installation_secret`)).toEqual([]);
      const folder = dirname(db.url.replace(/^file:/, ""));
      expect(readFileSync(join(folder, "auth-secret"), "utf8").trim()).toBe(s.app.config.authSecret);
      expect(JSON.parse(readFileSync(join(folder, "vapid-keys.json"), "utf8")).publicKey).toBe(
        s.app.config.vapid.publicKey,
      );
    } finally {
      await s.close();
      await db.drop();
    }
  });
});

if (process.env.TEST_DATABASE_URL) {
  describe("shared limits and secrets on two nodes on one PostgreSQL", () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });

    /** Two nodes on a fresh database, with no PODWATCH_AUTH_SECRET (the installation's own is used), started together. */
    async function twoNodes(
      env: Record<string, string> = {},
    ): Promise<{ db: TestDatabase; a: RunningServer; b: RunningServer }> {
      const db = await createTestDatabase("postgres");
      cleanups.push(() => db.drop());
      const start = (nodeId: string) =>
        startServer(
          readConfig({
            DATABASE_URL: db.url,
            PORT: "0",
            HOST: "127.0.0.1",
            PODWATCH_DEMO: "0",
            PODWATCH_WEB: "0",
            PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
            PODWATCH_NODE_ID: nodeId,
            ...env,
          }),
        );
      const [a, b] = await Promise.all([start("node-a"), start("node-b")]);
      cleanups.push(
        () => a.close(),
        () => b.close(),
      );
      return { db, a, b };
    }

    it("a request budget spent on node A is spent on node B", async () => {
      const { a, b, db } = await twoNodes({ PODWATCH_RATE_LIMIT_PER_MINUTE: "8" });
      await awayFromMinuteEdge();
      const { tokens } = await agentPod(a.url, "limits", { impl: "implementer" });
      const me = (node: RunningServer) =>
        api(node.url, "GET", "/api/v1/me", undefined, { token: tokens["impl"] }).then((r) => r.status);
      const onA = [];
      for (let i = 0; i < 8; i++) onA.push(await me(a));
      expect(onA).toEqual(Array(8).fill(200));
      expect(await me(a)).toBe(429);
      // A adds what it admitted to the shared count in batches (every 250 ms): B, seeing the token
      // for the first time this minute, reads it then.
      await (a.app.access.limits.perKey as BatchedSharedLimiter).flush();
      expect(await me(b)).toBe(429);
      const rows = (await rawSql(db, `SELECT key, points FROM rate_limit WHERE key LIKE 'api:token:%'`)) as {
        points: number;
      }[];
      expect(rows).toHaveLength(1);
      expect(rows[0]!.points).toBe(8); // refusals are not counted
    });

    it("two nodes' batched request budgets add up in the shared table, overshooting by at most one flush interval's admissions", async () => {
      const db = await createTestDatabase("postgres");
      cleanups.push(() => db.drop());
      const store = await openStore(db.url);
      const [a, b] = [
        new BatchedSharedLimiter(store.pool!, "api", 10),
        new BatchedSharedLimiter(store.pool!, "api", 10),
      ];
      cleanups.push(async () => (a.stop(), b.stop(), await store.close()));
      const admitted = async (l: BatchedSharedLimiter, n: number) => {
        let ok = 0;
        for (let i = 0; i < n; i++)
          await l.consume("token:t").then(
            () => ok++,
            () => {},
          );
        return ok;
      };
      await awayFromMinuteEdge();
      expect(await admitted(a, 6)).toBe(6);
      await a.flush();
      expect(await admitted(b, 10)).toBe(4); // B reads A's six when it first sees the token
      await b.flush();
      expect(await admitted(a, 10)).toBe(4); // A learns of B's four only at its next flush: the bounded overshoot
      await a.flush();
      expect(await admitted(a, 3)).toBe(0);
      expect(await admitted(b, 3)).toBe(0); // B knows its own four; its view is 10
      const rows = (await rawSql(db, `SELECT points FROM rate_limit WHERE key = 'api:token:t'`)) as {
        points: number;
      }[];
      expect(rows[0]!.points).toBe(14);
    });

    it("failed authentications on node A count on node B", async () => {
      const { a, b } = await twoNodes({ PODWATCH_AUTH_FAILURES_PER_MINUTE: "3" });
      const wrong = (node: RunningServer) =>
        api(node.url, "GET", "/api/v1/pods", undefined, { token: "pwa_wrong" }).then((r) => r.status);
      expect([await wrong(a), await wrong(b), await wrong(a)]).toEqual([401, 401, 401]);
      const limited = await api(b.url, "GET", "/api/v1/pods", undefined, { token: "pwa_wrong" });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await wrong(a)).toBe(429);
    });

    it("Better Auth's sign-in throttle is one across nodes", async () => {
      const { a, b } = await twoNodes({ PODWATCH_SIGN_INS_PER_MINUTE: "2" });
      expect((await signIn(a.url, "nobody@example.com", "wrong password")).status).toBe(401);
      expect((await signIn(b.url, "nobody@example.com", "wrong password")).status).toBe(401);
      expect((await signIn(a.url, "nobody@example.com", "wrong password")).status).toBe(429);
      expect((await signIn(b.url, "nobody@example.com", "wrong password")).status).toBe(429);
    });

    it("a session made on node A is good on node B, and both push with one VAPID pair", async () => {
      const { a, b, db } = await twoNodes({ PODWATCH_SIGN_INS_PER_MINUTE: "100" });
      expect(a.app.config.authSecret).toBe(b.app.config.authSecret);
      expect(
        (
          await api(a.url, "POST", "/api/v1/users", {
            email: "pia@example.com",
            name: "Pia",
            password: PASSWORD,
          })
        ).status,
      ).toBe(201);
      const session = await signIn(a.url, "pia@example.com", PASSWORD);
      expect(session.status).toBe(200);
      const onB = await api(b.url, "GET", "/api/v1/me/push", undefined, { cookie: session.cookie });
      expect(onB.status).toBe(200);
      const onA = await api(a.url, "GET", "/api/v1/me/push", undefined, { cookie: session.cookie });
      expect(onB.body.publicKey).toBe(onA.body.publicKey);
      expect(Buffer.from(onA.body.publicKey, "base64url")).toHaveLength(65);
      const names = (await rawSql(db, `SELECT name FROM installation_secret ORDER BY name`)) as {
        name: string;
      }[];
      expect(names.map((r) => r.name)).toEqual(["auth-secret", "vapid-keys"]);
    });

    it("an installation upgraded from files keeps its secret and VAPID pair; a second node's own files lose", async () => {
      const db = await createTestDatabase("postgres");
      cleanups.push(() => db.drop());
      const dir = mkdtempSync(join(tmpdir(), "podwatch-upgrade-"));
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const secret = randomBytes(32).toString("base64url");
      const pair = webpush.generateVAPIDKeys();
      writeFileSync(join(dir, "auth-secret"), `${secret}\n`);
      writeFileSync(join(dir, "vapid-keys.json"), JSON.stringify(pair));
      const store = await openStore(db.url);
      cleanups.push(() => store.close());
      expect(await installationAuthSecret(store, join(dir, "auth-secret"))).toBe(secret);
      expect(
        await installationVapidKeys(store, join(dir, "vapid-keys.json"), { subject: "mailto:a@b.c" }),
      ).toEqual({ ...pair, subject: "mailto:a@b.c" });
      // Another node with files of its own, and one with none: both get the installation's.
      const other = join(dir, "other");
      writeFileSync(`${other}-secret`, `${randomBytes(32).toString("base64url")}\n`);
      expect(await installationAuthSecret(store, `${other}-secret`)).toBe(secret);
      expect(await installationAuthSecret(store, join(dir, "none"))).toBe(secret);
      expect(
        (await installationVapidKeys(store, join(dir, "none.json"), { subject: "mailto:a@b.c" })).publicKey,
      ).toBe(pair.publicKey);
      // The environment still wins.
      const env = webpush.generateVAPIDKeys();
      expect(
        (await installationVapidKeys(store, join(dir, "none.json"), { ...env, subject: "mailto:a@b.c" }))
          .publicKey,
      ).toBe(env.publicKey);
    });

    it("a database that fails mid-check falls back to an in-memory limit of the same size, never an error", async () => {
      const db = await createTestDatabase("postgres");
      cleanups.push(() => db.drop());
      const store = await openStore(db.url);
      const limits = createLimits(
        readConfig({ DATABASE_URL: db.url, PODWATCH_AUTH_FAILURES_PER_MINUTE: "2" }),
        store,
      );
      await limits.authFailures.consume("ip:192.0.2.1");
      await store.close(); // every later query fails
      await expect(limits.authFailures.consume("ip:192.0.2.1")).resolves.toMatchObject({
        remainingPoints: expect.any(Number),
      });
      await expect(limits.authFailures.consume("ip:192.0.2.1")).resolves.toBeDefined();
      await expect(limits.authFailures.consume("ip:192.0.2.1")).rejects.toMatchObject({
        msBeforeNext: expect.any(Number),
      });
    });
  });
}

// The first-start admin is made once: on PostgreSQL four nodes starting at once on a
// fresh database, each asked to make its own admin, make exactly one between them and none
// fails; on either database a later start makes none, and one cut short between the admin and
// their password is finished by the next start.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { startServerOn } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import { bootstrapAdmin } from "./bootstrap-admin";

describe.each(testProviders())("the first-start admin on %s", (provider) => {
  let db: TestDatabase;
  const nodes: RunningServer[] = [];
  beforeAll(async () => void (db = await createTestDatabase(provider)));
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await db?.drop();
  });
  const users = (node: RunningServer) =>
    node.app.store.prisma.user.findMany({ select: { email: true, isAdmin: true, mustChangePassword: true } });

  it(
    provider === "postgres"
      ? "four nodes starting at once on an empty database make exactly one admin, and none fails"
      : "the first start makes the admin",
    async () => {
      const starting = provider === "postgres" ? 4 : 1;
      nodes.push(...(await Promise.all(Array.from({ length: starting }, () => startServerOn(db)))));
      const made = await Promise.all(
        nodes.map((node, i) => bootstrapAdmin(node.app.access, `admin-${i}@example.com`)),
      );
      const firsts = made.filter((m) => m !== null);
      expect(firsts).toHaveLength(1);
      expect(firsts[0]!.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(await users(nodes[0]!)).toEqual([
        { email: firsts[0]!.email, isAdmin: true, mustChangePassword: true },
      ]);
    },
  );

  it("a later start makes none", async () => {
    const later = await startServerOn(db);
    nodes.push(later);
    expect(await bootstrapAdmin(later.app.access, "someone-else@example.com")).toBeNull();
    expect(await users(later)).toHaveLength(1);
  });

  it("an admin left without a password by a crashed first start is finished by the next start, and can sign in", async () => {
    const half = await createTestDatabase(provider);
    const node = await startServerOn(half, { PODWATCH_SIGN_INS_PER_MINUTE: "100" });
    try {
      // What a crash after the first of the three writes leaves: the user row, no credential account.
      const ctx = await node.app.access.auth.$context;
      await ctx.internalAdapter.createUser(
        { email: "root@example.com", name: "Administrator", emailVerified: true, isAdmin: true },
        { method: "admin" },
      );
      const finished = await bootstrapAdmin(node.app.access, "someone-else@example.com");
      expect(finished).toEqual({
        email: "root@example.com",
        password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
      });
      expect(await users(node)).toEqual([
        { email: "root@example.com", isAdmin: true, mustChangePassword: true },
      ]);
      const signIn = await fetch(`${node.url}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: node.url },
        body: JSON.stringify({ email: "root@example.com", password: finished!.password }),
      });
      expect(signIn.status).toBe(200);
      expect(await bootstrapAdmin(node.app.access, "someone-else@example.com")).toBeNull(); // finished once
    } finally {
      await node.close();
      await half.drop();
    }
  });
});

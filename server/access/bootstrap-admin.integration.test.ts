// The first-start admin is made once (issue 17): on PostgreSQL four nodes starting at once on a
// fresh database, each asked to make its own admin, make exactly one between them and none
// fails; on either database a later start makes none.
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
  const users = (node: RunningServer) => node.app.store.prisma.user.findMany({ select: { email: true, isAdmin: true, mustChangePassword: true } });

  it(provider === "postgres" ? "four nodes starting at once on an empty database make exactly one admin, and none fails" : "the first start makes the admin", async () => {
    const starting = provider === "postgres" ? 4 : 1;
    nodes.push(...(await Promise.all(Array.from({ length: starting }, () => startServerOn(db)))));
    const made = await Promise.all(nodes.map((node, i) => bootstrapAdmin(node.app.access, `admin-${i}@example.com`)));
    const firsts = made.filter((m) => m !== null);
    expect(firsts).toHaveLength(1);
    expect(firsts[0]!.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(await users(nodes[0]!)).toEqual([{ email: firsts[0]!.email, isAdmin: true, mustChangePassword: true }]);
  });

  it("a later start makes none", async () => {
    const later = await startServerOn(db);
    nodes.push(later);
    expect(await bootstrapAdmin(later.app.access, "someone-else@example.com")).toBeNull();
    expect(await users(later)).toHaveLength(1);
  });
});

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../server/testing/test-databases";

const run = promisify(execFile);

// The committed (hand-reviewed) migrations must produce exactly prisma/models.prisma,
// as judged by Prisma's own schema engine, on both providers.
describe("migrations match the models", () => {
  let shadow: TestDatabase | null = null;
  beforeAll(async () => {
    if (process.env.TEST_DATABASE_URL) shadow = await createTestDatabase("postgres");
  });
  afterAll(() => shadow?.drop());

  it("new-migration --check finds nothing to create", async () => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", join(import.meta.dirname, "new-migration.ts"), "--check"],
      {
        env: { ...process.env, ...(shadow ? { SHADOW_DATABASE_URL: shadow.url } : {}) },
      },
    );
    expect(stdout).toContain("sqlite: models match the migrations");
    if (shadow) expect(stdout).toContain("postgres: models match the migrations");
  });
});

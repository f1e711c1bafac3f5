// Upgrading a PostgreSQL installation whose blobs were files in its data folder (./data/blobs,
// before blobs moved into the database): the next start imports them, so the evidence they
// back is still served and verified. A torn file is not imported; the files stay; a second
// node finds nothing left to do; a database with no evidence imports nothing.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerOn, TEST_ADMIN_TOKEN, agentPod, api } from "../testing/test-server";
import { createTestDatabase, rawSql, type TestDatabase } from "../testing/test-databases";
import { FileBlobStore } from "./file-blob-store";
import { CHUNK_BYTES } from "./chunk-upload";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

if (process.env.TEST_DATABASE_URL) {
  describe("blobs from the data folder, on upgrade to the database", () => {
    let db: TestDatabase;
    let cwd: string;
    let work: string;
    const blobCount = async (d: TestDatabase) =>
      ((await rawSql(d, `SELECT count(*)::int AS n FROM blob`)) as { n: number }[])[0]!.n;

    // PostgreSQL's data folder is ./data of the working directory: this test file runs in its own process.
    beforeAll(() => {
      cwd = process.cwd();
      work = mkdtempSync(join(tmpdir(), "podwatch-blob-import-"));
      process.chdir(work);
    });
    afterAll(async () => {
      process.chdir(cwd);
      rmSync(work, { recursive: true, force: true });
      await db?.drop();
    });

    it("a start on PostgreSQL imports the folder's blobs that evidence names; both nodes serve and verify them", async () => {
      db = await createTestDatabase("postgres");
      // The installation before the upgrade: a pod whose evidence names blobs kept as files.
      const before = await startServerOn(db, { PODWATCH_BLOB_DIR: join(work, "elsewhere") });
      const { podId, tokens } = await agentPod(before.url, "upgrade", { bot: "implementer" });
      await before.close();
      const files = new FileBlobStore(join(work, "data", "blobs"), 8 * 1024 * 1024);
      const blobs = [
        randomBytes(2 * CHUNK_BYTES + 123),
        Buffer.from("a small log\n"),
        randomBytes(CHUNK_BYTES),
      ];
      for (const b of blobs) expect((await files.put(sha(b), Readable.from([b]))).created).toBe(true);
      const torn = randomBytes(5000);
      writeFileSync(files.path(sha(blobs[2]!)), torn); // a file cut short by a power cut: its name no longer matches
      const bundle = {
        bundleId: "b1",
        commands: [],
        artifacts: blobs.map((b, i) => ({ path: `f${i}`, sha256: sha(b), size: b.length })),
        env: { commit: "abc" },
        manifestHash: sha(blobs[0]!),
      };

      const a = await startServerOn(db, { PODWATCH_NODE_ID: "import-a" });
      expect(await blobCount(db)).toBe(0); // no evidence yet: nothing imported
      expect(
        (
          await api(
            a.url,
            "POST",
            `/api/v1/pods/${podId}/events`,
            { type: "evidence.bundle", actor: "bot", body: bundle },
            { token: tokens["bot"]! },
          )
        ).status,
      ).toBe(201);
      await a.close();

      const b = await startServerOn(db, { PODWATCH_NODE_ID: "import-b" });
      const c = await startServerOn(db, { PODWATCH_NODE_ID: "import-c" });
      try {
        expect(await blobCount(db)).toBe(2); // the torn one stays out
        for (const node of [b, c]) {
          for (const blob of blobs.slice(0, 2)) {
            const got = await fetch(`${node.url}/api/v1/blobs/${sha(blob)}?pod=${podId}`, { headers: admin });
            expect(Buffer.from(await got.arrayBuffer()).equals(blob)).toBe(true);
            expect(
              (await api(node.url, "GET", `/api/v1/blobs/${sha(blob)}/verify?pod=${podId}`)).body,
            ).toEqual({ sha256: sha(blob), ok: true, size: blob.length });
          }
          expect(
            (await fetch(`${node.url}/api/v1/blobs/${sha(blobs[2]!)}?pod=${podId}`, { headers: admin }))
              .status,
          ).toBe(404);
        }
        for (const blob of blobs) expect(existsSync(files.path(sha(blob)))).toBe(true); // left in place
      } finally {
        await b.close();
        await c.close();
      }
    });
  });
}

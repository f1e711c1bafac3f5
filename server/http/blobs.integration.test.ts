import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

// On PostgreSQL the blobs live in the database (chunked), on SQLite in the data folder: the same API either way.
describe.each(testProviders())("content-addressed blobs on %s", (provider) => {
  let s: TestServer;
  let agent: string;
  let share: string;
  let pod: string;
  beforeAll(async () => {
    s = await startTestServer(provider, { PODWATCH_BLOB_MAX_BYTES: String(8 * 1024 * 1024) });
    pod = (await api(s.url, "POST", "/api/v1/pods", { name: "blobs", mode: "collaboration" })).body.id;
    await api(s.url, "POST", `/api/v1/pods/${pod}/members`, {
      memberId: "uploader",
      kind: "agent",
      displayName: "u",
      roles: [],
    });
    agent = (await api(s.url, "POST", `/api/v1/pods/${pod}/members/uploader/tokens`, {})).body.token;
    share = (await api(s.url, "POST", `/api/v1/pods/${pod}/share-links`, {})).body.token;
  });
  afterAll(() => s.stop());

  const put = (name: string, body: Buffer, token = agent) =>
    fetch(`${s.url}/api/v1/blobs/${name}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      body: new Uint8Array(body),
    });
  const head = (name: string) =>
    fetch(`${s.url}/api/v1/blobs/${name}`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });

  it("stores a blob under its SHA-256, once, and returns it byte for byte", async () => {
    const data = randomBytes(5 * 1024 * 1024 + 17);
    const first = await put(sha(data), data);
    expect(first.status).toBe(201);
    expect((await put(sha(data), data)).status).toBe(200); // already there: nothing new
    expect((await head(sha(data))).headers.get("content-length")).toBe(String(data.length));
    // A share link reads the blobs its pod's evidence names (blob-scope.integration.test.ts).
    const bundle = {
      bundleId: "b1",
      commands: [],
      artifacts: [{ path: "data.bin", sha256: sha(data), size: data.length }],
      env: { commit: "abc" },
      manifestHash: sha(data),
    };
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${pod}/events`, {
          type: "evidence.bundle",
          actor: "uploader",
          body: bundle,
        })
      ).status,
    ).toBe(201);
    const got = await fetch(`${s.url}/api/v1/blobs/${sha(data)}`, {
      headers: { authorization: `Bearer ${share}` },
    });
    expect(got.headers.get("content-type")).toBe("application/octet-stream");
    expect(got.headers.get("content-disposition")).toContain("attachment");
    expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    const verified = await api(s.url, "GET", `/api/v1/blobs/${sha(data)}/verify`);
    expect(verified.body).toEqual({ sha256: sha(data), ok: true, size: data.length });
    // Re-hashing is a verification like a tape walk: one in flight per caller (here a share link), more is 429.
    const many = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${s.url}/api/v1/blobs/${sha(data)}/verify`, { headers: { authorization: `Bearer ${share}` } }),
      ),
    );
    expect(many.map((r) => r.status)).toContain(200);
    const refused = many.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]!.headers.get("retry-after")).toBe("1");
  });

  it("refuses a tampered upload and stores nothing", async () => {
    const data = Buffer.from("the real content");
    const r = await put(sha(Buffer.from("something else")), data);
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("hash_mismatch");
    expect((await head(sha(Buffer.from("something else")))).status).toBe(404);
  });

  it("refuses blobs over the size limit, bad names, and uploads by watchers", async () => {
    const big = randomBytes(8 * 1024 * 1024 + 1);
    expect((await put(sha(big), big)).status).toBe(413);
    expect((await head(sha(big))).status).toBe(404);
    expect((await put("not-a-hash", Buffer.from("x"))).status).toBe(400);
    const data = Buffer.from("watchers only look");
    expect((await put(sha(data), data, share)).status).toBe(403);
    expect(
      (await fetch(`${s.url}/api/v1/blobs/${sha(data)}`, { method: "PUT", body: new Uint8Array(data) }))
        .status,
    ).toBe(401);
  });
});

// A blob is read through a pod: the caller must be able to read the pod, and
// one of the pod's evidence bundles must name the blob (an artifact or its
// manifest). Anything else is 404, so a blob's existence never leaks.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe.each(testProviders())("which blobs a caller may read on %s", (provider) => {
  let s: TestServer;
  const a = { podId: "", agent: "", share: "", blob: randomBytes(2048) };
  const b = { podId: "", agent: "", share: "", blob: randomBytes(2048) };
  const manifest = Buffer.from(`{"artifacts":[],"commands":[],"env":{}} ${randomUUID()}`);

  const get = (path: string, token: string, method = "GET") =>
    fetch(`${s.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  const put = (data: Buffer, token: string) =>
    fetch(`${s.url}/api/v1/blobs/${sha(data)}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      body: new Uint8Array(data),
    });

  beforeAll(async () => {
    s = await startTestServer(provider);
    for (const [pod, name] of [
      [a, "pod-a"],
      [b, "pod-b"],
    ] as const) {
      const { podId, tokens } = await agentPod(s.url, name, { impl: "implementer" });
      pod.podId = podId;
      pod.agent = tokens.impl!;
      pod.share = (await api(s.url, "POST", `/api/v1/pods/${podId}/share-links`, {})).body.token;
      expect((await put(pod.blob, pod.agent)).status).toBe(201);
      const bundle = {
        type: "evidence.bundle",
        actor: "impl",
        role: "implementer",
        body: {
          bundleId: `ev-${name}`,
          commands: [{ command: "npm test", exit_code: 0 }],
          artifacts: [{ path: "report.bin", sha256: sha(pod.blob), size: pod.blob.length }],
          env: { commit: "abc" },
          manifestHash: sha(pod === a ? manifest : pod.blob),
        },
      };
      expect(
        (await api(s.url, "POST", `/api/v1/pods/${podId}/events`, bundle, { token: pod.agent })).status,
      ).toBe(201);
    }
    expect((await put(manifest, a.agent)).status).toBe(201);
  });
  afterAll(() => s.stop());

  it("a share link reads its own pod's blobs, artifacts and manifest", async () => {
    for (const path of [`/api/v1/blobs/${sha(a.blob)}`, `/api/v1/blobs/${sha(a.blob)}?pod=${a.podId}`]) {
      const r = await get(path, a.share);
      expect(r.status).toBe(200);
      expect(Buffer.from(await r.arrayBuffer()).equals(a.blob)).toBe(true);
    }
    expect((await get(`/api/v1/blobs/${sha(manifest)}?pod=${a.podId}`, a.share)).status).toBe(200);
    expect((await get(`/api/v1/blobs/${sha(a.blob)}`, a.share, "HEAD")).status).toBe(200);
    expect(await (await get(`/api/v1/blobs/${sha(a.blob)}/verify?pod=${a.podId}`, a.share)).json()).toEqual({
      sha256: sha(a.blob),
      ok: true,
      size: 2048,
    });
  });

  it("a share link of pod A cannot fetch, probe or verify pod B's blob: 404, as for a blob that does not exist", async () => {
    const missing = sha(randomBytes(16));
    for (const name of [sha(b.blob), missing]) {
      for (const path of [
        `/api/v1/blobs/${name}`,
        `/api/v1/blobs/${name}?pod=${a.podId}`,
        `/api/v1/blobs/${name}?pod=${b.podId}`,
        `/api/v1/blobs/${name}/verify`,
        `/api/v1/blobs/${name}/verify?pod=${b.podId}`,
      ]) {
        const r = await get(path, a.share);
        expect(r.status, path).toBe(404);
        expect(((await r.json()) as { error: { code: string } }).error.code).toBe("not_found");
        if (!path.includes("/verify"))
          expect((await get(path, a.share, "HEAD")).status, `HEAD ${path}`).toBe(404);
      }
    }
  });

  it("an agent reads only blobs its own pod references, not even its own uploads until a bundle names them", async () => {
    expect((await get(`/api/v1/blobs/${sha(a.blob)}`, a.agent)).status).toBe(200);
    expect((await get(`/api/v1/blobs/${sha(b.blob)}`, a.agent)).status).toBe(404);
    expect((await get(`/api/v1/blobs/${sha(b.blob)}?pod=${b.podId}`, a.agent)).status).toBe(404);
    const unreferenced = randomBytes(64);
    expect((await put(unreferenced, a.agent)).status).toBe(201);
    expect((await get(`/api/v1/blobs/${sha(unreferenced)}`, a.agent, "HEAD")).status).toBe(404);
  });

  it("uploading content that is already stored proves nothing without the content itself", async () => {
    // Without the bytes, a PUT for pod B's blob must not answer "already there".
    const r = await fetch(`${s.url}/api/v1/blobs/${sha(b.blob)}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${a.agent}` },
      body: "not the content",
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe("hash_mismatch");
    expect((await put(b.blob, a.agent)).status).toBe(200); // with them, it is deduplicated
  });

  it("a site admin reads any blob; people name the pod they read through", async () => {
    expect((await get(`/api/v1/blobs/${sha(b.blob)}`, TEST_ADMIN_TOKEN)).status).toBe(200);
    expect((await get(`/api/v1/blobs/${sha(b.blob)}?pod=${a.podId}`, TEST_ADMIN_TOKEN)).status).toBe(404);
    const email = `viewer-${randomUUID().slice(0, 6)}@example.com`;
    const password = "a long enough password";
    await api(s.url, "POST", "/api/v1/users", { email, name: "v", password });
    await api(s.url, "POST", `/api/v1/pods/${a.podId}/members`, {
      memberId: email,
      kind: "human",
      displayName: "v",
      roles: ["viewer"],
    });
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const asPerson = (path: string) => fetch(`${s.url}${path}`, { headers: { cookie } });
    expect((await asPerson(`/api/v1/blobs/${sha(a.blob)}?pod=${a.podId}`)).status).toBe(200);
    expect((await asPerson(`/api/v1/blobs/${sha(b.blob)}?pod=${b.podId}`)).status).toBe(404);
    expect((await asPerson(`/api/v1/blobs/${sha(b.blob)}?pod=${a.podId}`)).status).toBe(404);
    const unnamed = await asPerson(`/api/v1/blobs/${sha(a.blob)}`);
    expect(unnamed.status).toBe(400);
    expect(((await unnamed.json()) as { error: { message: string } }).error.message).toMatch(/\?pod=/);
  });
});

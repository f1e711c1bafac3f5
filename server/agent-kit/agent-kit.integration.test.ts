// The agent kit as an agent's machine gets it: served by a real server, installed by real npm into a
// private prefix from the server's URL, and run with Node only (no checkout on its PATH, no tsx).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installedPodwatch } from "../testing/installed-podwatch";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";

const VERSION = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "package.json"), "utf8"),
).version;

describe("the agent kit, served and installed", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer("sqlite");
  });
  afterAll(() => s?.stop());

  it("is an npm tarball with its bin, no dependencies, under the team's own name; cached by its ETag", async () => {
    const r = await fetch(`${s.url}/agent/podwatch.tgz`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("application/gzip");
    expect(r.headers.get("cache-control")).toBe("no-cache");
    expect(r.headers.get("x-podwatch-kit-version")).toBe(VERSION);
    const bytes = Buffer.from(await r.arrayBuffer());
    const tar = gunzipSync(bytes);
    // The first entry's header: its name, then its size (octal) at 124.
    expect(tar.subarray(0, 20).toString("latin1").replace(/\0+$/, "")).toBe("package/package.json");
    const size = parseInt(tar.subarray(124, 135).toString("latin1"), 8);
    const pkg = JSON.parse(tar.subarray(512, 512 + size).toString("utf8"));
    expect(pkg).toMatchObject({
      name: "@podwatch/agent",
      version: VERSION,
      bin: { podwatch: "bin/podwatch.mjs" },
      engines: { node: ">=20" },
    });
    expect(pkg.dependencies).toBeUndefined();

    const etag = r.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${s.url}/agent/podwatch.tgz`, { headers: { "if-none-match": etag } });
    expect([again.status, await again.text()]).toEqual([304, ""]);
    const head = await fetch(`${s.url}/agent/podwatch.tgz`, { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.headers.get("etag")]).toEqual([
      200,
      String(bytes.length),
      etag,
    ]);
    const pinned = await fetch(`${s.url}/agent/podwatch-${VERSION}.tgz`);
    expect(Buffer.from(await pinned.arrayBuffer()).equals(bytes)).toBe(true);
    const other = await api(s.url, "GET", "/agent/podwatch-0.0.1.tgz", undefined, null);
    expect([other.status, other.body.error.code]).toEqual([404, "not_found"]);
    expect(other.body.error.message).toContain(VERSION);
  });

  it("installs with npm from the server's URL and runs with Node only: --version, then a checkpoint on the tape", async () => {
    const { podId, tokens } = await agentPod(s.url, "kit", { "implementer-1": "implementer" });
    const bin = await installedPodwatch(s.url);
    // Node's own folder only: no checkout, no tsx, no other podwatch.
    const env = {
      NODE_ENV: "production" as const,
      PATH: `${bin}:${join(process.execPath, "..")}`,
      HOME: join(bin, ".."),
    };
    const run = (args: string[], more: Record<string, string> = {}) =>
      promisify(execFile)(join(bin, "podwatch"), args, { env: { ...env, ...more }, cwd: join(bin, "..") });
    expect((await run(["--version"])).stdout).toBe(`podwatch ${VERSION}\n`);
    const agent = { PODWATCH_URL: s.url, PODWATCH_TOKEN: tokens["implementer-1"]! };
    await run(["checkpoint", "-c", "Installed from the server", "-n", "Work"], agent);
    const tape = await api(s.url, "GET", `/api/v1/pods/${podId}/events`, undefined, {
      token: TEST_ADMIN_TOKEN,
    });
    const checkpoint = tape.body.events.find((e: { type: string }) => e.type === "checkpoint");
    expect(checkpoint).toMatchObject({
      actor: "implementer-1",
      body: { completed: ["Installed from the server"] },
    });
    // The hook's fast path is in the kit too: without a server it says so (exit 1), it does not crash.
    const hooked = run(["hook"]);
    hooked.child.stdin!.end("{}");
    const hook = await hooked.catch((e: { code: number; stderr: string }) => e);
    expect(hook).toMatchObject({ code: 1, stderr: expect.stringContaining("PODWATCH_URL") });
    // A second call for the same kit is the same install.
    expect(await installedPodwatch(s.url)).toBe(bin);
  });
});

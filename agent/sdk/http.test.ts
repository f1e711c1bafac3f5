// The SDK's HTTP exchange against misbehaving peers on 127.0.0.1: a redirect, a
// server that never answers, and one that refuses an upload before reading it.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PodwatchClient } from "./client";
import { hasBlob } from "./blobs";
import { exchange } from "./http";

describe("SDK HTTP exchange", () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === "/api/v1/me" || req.url?.startsWith("/api/v1/blobs/"))
        return void res.writeHead(301, { location: "https://podwatch.example/" }).end();
      if (req.url === "/silent") return; // never answers
      if (req.url === "/refuse")
        return void res
          .writeHead(413, { "content-type": "application/json", connection: "close" })
          .end(JSON.stringify({ error: { code: "too_large", message: "too big" } }));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("treats a redirect as a misconfigured URL, naming where it points", async () => {
    const client = new PodwatchClient({ url, token: "t" });
    await expect(client.whoami()).rejects.toMatchObject({
      status: 301,
      message: expect.stringContaining("https://podwatch.example/"),
    });
    await expect(hasBlob(client, "a".repeat(64))).rejects.toMatchObject({ status: 301 });
  });

  it("gives up on a connection that stays silent, as a retryable timeout", async () => {
    await expect(
      exchange({ method: "GET", url: `${url}/silent`, headers: {}, idleMs: 200 }),
    ).rejects.toMatchObject({ status: 0, code: "timeout" });
  });

  it("reports the server's answer when it refuses an upload before reading it", async () => {
    const r = await exchange({
      method: "PUT",
      url: `${url}/refuse`,
      headers: { "content-length": 8 * 1024 * 1024 },
      body: Buffer.alloc(8 * 1024 * 1024),
    });
    expect(r.status).toBe(413);
  });

  it("an abort is an abort, not an unreachable server", async () => {
    const stop = new AbortController();
    const pending = exchange({ method: "GET", url: `${url}/silent`, headers: {}, signal: stop.signal });
    stop.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

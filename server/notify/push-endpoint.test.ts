// Push endpoints against SSRF: at subscription (scheme, credentials, every resolved
// address) and at connection (postPush refuses before a byte is sent).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPushEndpoint, mayReach } from "./push-endpoint";
import { postPush } from "./post-push";

const refusedWith = (endpoint: string, insecure: boolean) =>
  checkPushEndpoint(endpoint, insecure).then(
    () => null,
    (e: Error) => e.message,
  );

describe("checkPushEndpoint", () => {
  it("takes an https endpoint on a public address", async () => {
    expect(await refusedWith("https://93.184.216.34/push/abc", false)).toBeNull();
    expect(await refusedWith("https://[2606:4700::1111]/push/abc", false)).toBeNull();
  });

  it("refuses http, credentials, and loopback, private, link-local or mapped addresses", async () => {
    expect(await refusedWith("http://93.184.216.34/push", false)).toMatch(/https URL/);
    expect(await refusedWith("https://user:pw@93.184.216.34/push", false)).toMatch(
      /no user name or password/,
    );
    for (const host of [
      "127.0.0.1",
      "[::1]",
      "10.1.2.3",
      "192.168.1.1",
      "169.254.169.254",
      "[fd00::1]",
      "[::ffff:127.0.0.1]",
      "0.0.0.0",
      "localhost",
    ]) {
      expect(await refusedWith(`https://${host}/push`, false), host).toMatch(/internal address/);
    }
  });

  it("with the test knob pushInsecureLoopback a loopback push service (http too), and still nothing private", async () => {
    expect(await refusedWith("http://127.0.0.1:9/push", true)).toBeNull();
    expect(await refusedWith("http://localhost:9/push", true)).toBeNull();
    expect(await refusedWith("https://[::1]:9/push", true)).toBeNull();
    expect(await refusedWith("https://10.1.2.3/push", true)).toMatch(/internal address/);
    expect(await refusedWith("http://93.184.216.34/push", true)).toMatch(/internal address/);
    expect(mayReach("169.254.169.254", true)).toBe(false);
  });
});

describe("postPush", () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      req.resume();
      req.on("end", () => res.writeHead(201).end());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("refuses at connect time a host that resolves inward (no request is made), a literal private address too", async () => {
    await expect(
      postPush(`https://localhost:${port}/push`, {}, Buffer.from("x"), false),
    ).rejects.toMatchObject({ code: "ESSRF" });
    await expect(
      postPush(`https://127.0.0.1:${port}/push`, {}, Buffer.from("x"), false),
    ).rejects.toMatchObject({ code: "ESSRF" });
    await expect(postPush("http://93.184.216.34/push", {}, Buffer.from("x"), false)).rejects.toThrow(/https/);
    expect(hits).toBe(0);
  });

  it("posts to a loopback push service when allowed, and answers its status", async () => {
    expect(await postPush(`http://localhost:${port}/push`, { ttl: "60" }, Buffer.from([0, 1, 2]), true)).toBe(
      201,
    );
    expect(hits).toBe(1);
  });
});

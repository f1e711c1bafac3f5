// Every request body is capped while it streams, on every route
// (Better Auth's too, reachable with no credentials): 413 with the error
// envelope, chunked or not, and the server stays responsive. Deep JSON under
// the cap is a 4xx naming the limit; a malformed %-escape in a path is a 400.
import { createHash, randomBytes } from "node:crypto";
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MAX_BODY_BYTES, WEB_MAX_BODY_BYTES } from "./body-limit";
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from "./json";
import { agentPod, api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";

const BLOB_MAX = 2 * MAX_BODY_BYTES;
type Sent = { status: number; body: any; bytesSentBeforeResponse: number };

/**
 * Streams `total` bytes of `chunk`s (chunked, unless `contentLength`), stopping early once the
 * server has answered — as a client that keeps writing while the server refuses.
 */
function stream(
  base: string,
  method: string,
  path: string,
  opts: { total: number; chunk?: Buffer; headers?: Record<string, string>; contentLength?: boolean },
): Promise<Sent> {
  const chunk = opts.chunk ?? Buffer.alloc(64 * 1024, "a");
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    let sentAtResponse = 0;
    const headers: Record<string, string> = {
      "content-type": "application/json",
      ...opts.headers,
      ...(opts.contentLength ? { "content-length": String(opts.total) } : {}),
    };
    const req = request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers });
    req.on("response", (res) => {
      answered = true;
      sentAtResponse = sent;
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        req.destroy();
        resolve({
          status: res.statusCode!,
          body: text ? JSON.parse(text) : null,
          bytesSentBeforeResponse: sentAtResponse,
        });
      });
    });
    // The server may close while we still write: that is fine once it has answered.
    // A write can fail (EPIPE) a moment before the answer already on its way is read: give it a second.
    req.on("error", (e) =>
      answered ? undefined : void setTimeout(() => (answered ? undefined : reject(e)), 1000),
    );
    const write = () => {
      while (!answered && sent < opts.total) {
        const part = chunk.subarray(0, Math.min(chunk.length, opts.total - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once("drain", write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

const stalled = async (base: string) => {
  const started = Date.now();
  expect((await fetch(`${base}/healthz`)).status).toBe(200);
  return Date.now() - started;
};

describe.each(testProviders())("request limits on %s", (provider) => {
  let s: TestServer;
  let podId: string;
  let token: string;
  beforeAll(async () => {
    s = await startTestServer(provider, { PODWATCH_BLOB_MAX_BYTES: String(BLOB_MAX) });
    const pod = await agentPod(s.url, "limits", { "impl-1": "implementer" });
    podId = pod.podId;
    token = pod.tokens["impl-1"]!;
  });
  afterAll(() => s.stop());

  const expectTooLarge = (r: Sent, max: number) => {
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe("payload_too_large");
    expect(r.body.error.message).toContain(String(max));
  };

  it("Better Auth: a chunked body over the limit gets 413 with the envelope, long before it has all been sent", async () => {
    const r = await stream(s.url, "POST", "/api/auth/sign-in/email", {
      total: 64 * 1024 * 1024,
      headers: { origin: s.url },
    });
    expectTooLarge(r, AUTH_MAX_BODY_BYTES);
    expect(r.bytesSentBeforeResponse).toBeLessThan(16 * 1024 * 1024);
    expect(await stalled(s.url)).toBeLessThan(1000);
  });

  it("Better Auth: a declared length over the limit is refused before reading, and a body within it still signs in", async () => {
    expectTooLarge(
      await stream(s.url, "POST", "/api/auth/sign-in/email", {
        total: AUTH_MAX_BODY_BYTES + 1,
        contentLength: true,
        headers: { origin: s.url },
      }),
      AUTH_MAX_BODY_BYTES,
    );
    const email = "limits@example.com";
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: "L", password })).status).toBe(201);
    const ok = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toContain("session_token");
  });

  it("agent API: a chunked body over the limit gets 413 with the envelope (and the server stays up)", async () => {
    const r = await stream(s.url, "POST", `/api/v1/pods/${podId}/events`, {
      total: 4 * MAX_BODY_BYTES,
      headers: { authorization: `Bearer ${token}` },
    });
    expectTooLarge(r, MAX_BODY_BYTES);
    expect(r.bytesSentBeforeResponse).toBeLessThan(3 * MAX_BODY_BYTES);
    expect(await stalled(s.url)).toBeLessThan(1000);
    expectTooLarge(
      await stream(s.url, "POST", "/api/v1/pods", {
        total: MAX_BODY_BYTES + 1,
        contentLength: true,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      }),
      MAX_BODY_BYTES,
    );
  });

  it("agent API: a client that goes on sending after its 413 still reads it, and is cut off within the linger bound", async () => {
    const u = new URL(s.url);
    const sock = connect(Number(u.port), u.hostname);
    let answer = "";
    let sent = 0;
    const closed = new Promise<number>((resolve) => sock.on("close", () => resolve(Date.now())));
    sock.on("error", () => {});
    sock.on("data", (d) => (answer += d.toString("latin1")));
    sock.write(
      `POST /api/v1/pods/${podId}/events HTTP/1.1\r\nhost: ${u.host}\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, "a");
    const frame = Buffer.concat([
      Buffer.from(`${chunk.length.toString(16)}\r\n`),
      chunk,
      Buffer.from("\r\n"),
    ]);
    const started = Date.now();
    let answeredAt = 0;
    // Never ends its body: sends as fast as the server reads, for at most 10 s.
    while (!sock.destroyed && Date.now() - started < 10_000) {
      if (!answeredAt && answer.includes("\r\n\r\n")) answeredAt = Date.now();
      sent += frame.length;
      if (!sock.write(frame)) await new Promise((r) => sock.once("drain", r).once("close", r));
    }
    const closedAt = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain("payload_too_large");
    expect(closedAt - (answeredAt || started)).toBeLessThan(6000); // the server stops reading a refused body after ~2 s or 16 MiB
    expect(sent).toBeLessThan(MAX_BODY_BYTES + 64 * 1024 * 1024);
    expect(await stalled(s.url)).toBeLessThan(1000);
  });

  it("pages and server actions (what goes to Next): a chunked body over the limit gets 413 with the envelope", async () => {
    const r = await stream(s.url, "POST", `/pods/${podId}`, {
      total: 16 * WEB_MAX_BODY_BYTES,
      headers: { "next-action": "x" },
    });
    expectTooLarge(r, WEB_MAX_BODY_BYTES);
    expect(r.bytesSentBeforeResponse).toBeLessThan(8 * WEB_MAX_BODY_BYTES);
  });

  it("blob uploads keep their own, larger limit", async () => {
    const blob = randomBytes(MAX_BODY_BYTES + 1024 * 1024); // new content: with PostgreSQL the blob folder outlives the test
    const sha = createHash("sha256").update(blob).digest("hex");
    const r = await stream(s.url, "PUT", `/api/v1/blobs/${sha}`, {
      total: blob.length,
      chunk: blob,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    });
    expect(r.status).toBe(201);
    const over = await stream(s.url, "PUT", `/api/v1/blobs/${"e".repeat(64)}`, {
      total: 8 * BLOB_MAX,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
    });
    expect(over.status).toBe(413);
    expect(over.body.error.message).toContain(String(BLOB_MAX));
    expect(await stalled(s.url)).toBeLessThan(1000);
  });

  it("deeply nested JSON under the size limit is a 400 naming the limit, quickly, on the agent API and Better Auth", async () => {
    for (const [path, size, auth] of [
      [`/api/v1/pods/${podId}/events`, MAX_BODY_BYTES - 16, { authorization: `Bearer ${token}` }],
      ["/api/auth/sign-in/email", AUTH_MAX_BODY_BYTES - 16, { origin: s.url }],
    ] as const) {
      const depth = Math.floor(size / 2);
      const text = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const pending = stream(s.url, "POST", path, {
        total: text.length,
        chunk: Buffer.from(text),
        headers: auth,
      });
      const r = await pending;
      expect(r.status, path).toBe(400);
      expect(r.body.error.code, path).toBe("json_too_deep");
      expect(r.body.error.message, path).toContain(`${MAX_JSON_DEPTH} levels`);
      expect(await stalled(s.url)).toBeLessThan(1000);
    }
  });

  it("a malformed %-escape in a path is a 400 with the envelope, never a 500", async () => {
    for (const path of [
      `/api/v1/pods/%E0%A4%A/state`,
      `/api/v1/pods/${podId}/workcells/%zz/proof`,
      "/share/%zz",
      "/pods/%E0%A4%A",
      "/api/auth/%zz",
    ]) {
      const res = await fetch(`${s.url}${path}`, {
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(res.status, path).toBe(400);
      expect((await res.json()).error.code, path).toBe("bad_path");
    }
  });

  it("a request target that is no URL is a 400, and the server lives on", async () => {
    for (const target of ["http://[", "//[::1", "http://x:99999/api/v1/pods"]) {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(s.url).port), "127.0.0.1", () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
        );
        let text = "";
        socket.setTimeout(5000, () => reject(new Error(`no answer to ${target}`)));
        socket
          .on("data", (d) => (text += d))
          .on("end", () => resolve(text))
          .on("error", reject);
      });
      expect(raw.split("\r\n")[0], target).toBe("HTTP/1.1 400 Bad Request");
      expect(JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4)).error.code, target).toBe("bad_path");
    }
    expect(await stalled(s.url)).toBeLessThan(1000);
  });
});

// holdBody hands Better Auth and Next a request whose body is whole and read as
// usual; these consumers read it the ways those libraries do (pipe + async
// iteration like Next's action handler, a web stream like Better Auth).
import { Agent, createServer, request, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdBody } from "./body-limit";

const MAX = 64 * 1024;

async function readAll(req: IncomingMessage, how: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  if (how === "web") {
    for await (const c of Readable.toWeb(req) as unknown as AsyncIterable<Uint8Array>)
      chunks.push(Buffer.from(c));
  } else {
    for await (const c of req.pipe(new PassThrough())) chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

describe("holdBody", () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) =>
      holdBody(req, res, MAX, () => {
        // Read later, as a framework would after its own setup.
        setTimeout(() => void readAll(req, String(req.headers["x-read"])).then((b) => res.end(b)), 5);
      }),
    );
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  /** Sends `parts` with pauses between them (so they arrive as separate reads), chunked or with a length. */
  const send = (parts: Buffer[], opts: { chunked: boolean; read: string; agent?: Agent }) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const total = parts.reduce((n, p) => n + p.length, 0);
      const headers = {
        "x-read": opts.read,
        ...(opts.chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(total) }),
      };
      const req = request(
        { port, host: "127.0.0.1", method: "POST", path: "/", headers, agent: opts.agent },
        (res) => {
          const out: Buffer[] = [];
          res
            .on("data", (d) => out.push(d))
            .on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(out) }));
        },
      );
      req.on("error", reject);
      void (async () => {
        for (const p of parts) {
          req.write(p);
          await new Promise((r) => setTimeout(r, 10));
        }
        req.end();
      })();
    });

  it("delivers the whole body, chunked or not, however it is read", async () => {
    const parts = [Buffer.from('{"email":'), Buffer.alloc(20_000, "x"), Buffer.from("é€😀}")];
    for (const chunked of [true, false]) {
      for (const read of ["pipe", "web"]) {
        const r = await send(parts, { chunked, read });
        expect(r.status).toBe(200);
        expect(r.body.equals(Buffer.concat(parts))).toBe(true);
      }
    }
  });

  it("keeps a kept-alive connection usable for the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 3; i++) {
      const body = Buffer.from(`request ${i}`);
      expect((await send([body], { chunked: i % 2 === 0, read: "pipe", agent })).body.toString()).toBe(
        `request ${i}`,
      );
    }
    agent.destroy();
  });

  it("answers 413 past the cap and never calls the handler", async () => {
    const r = await send([Buffer.alloc(MAX, "a"), Buffer.from("b")], { chunked: true, read: "pipe" });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body.toString()).error.code).toBe("payload_too_large");
  });
});

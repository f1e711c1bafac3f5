// postPush's hard deadline: a push service that answers one header line at a time
// (each within the idle timeout) cannot hold a push past the deadline, and a push
// in flight can be aborted (the sender's stop).
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postPush } from "./post-push";

/** A "push service" that starts an answer and then trickles one header line every 100 ms, forever. */
function tarpit() {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.write("HTTP/1.1 201 Created\r\n");
      const t = setInterval(() => socket.write(`x-slow-${Date.now()}: 1\r\n`), 100);
      socket.on("close", () => (clearInterval(t), sockets.delete(socket)));
    });
  });
  return { server, sockets };
}

describe("postPush against a tarpit", () => {
  const pit = tarpit();
  let endpoint = "";
  beforeAll(async () => {
    await new Promise<void>((r) => pit.server.listen(0, "127.0.0.1", r));
    endpoint = `http://127.0.0.1:${(pit.server.address() as AddressInfo).port}/push/slow`;
  });
  afterAll(async () => {
    for (const s of pit.sockets) s.destroy();
    await new Promise<void>((r) => pit.server.close(() => r()));
  });

  it("ends by its deadline even though every header line comes within the idle timeout", async () => {
    const started = Date.now();
    await expect(postPush(endpoint, {}, Buffer.from("x"), true, { deadlineMs: 800 })).rejects.toThrow(
      /within 0.8 s/,
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(700);
    expect(took).toBeLessThan(2_000);
    // The connection is gone, not left trickling.
    await new Promise((r) => setTimeout(r, 100));
    expect(pit.sockets.size).toBe(0);
  }, 10_000);

  it("is aborted at once by its signal", async () => {
    const abort = new AbortController();
    const started = Date.now();
    const pending = postPush(endpoint, {}, Buffer.from("x"), true, { signal: abort.signal });
    setTimeout(() => abort.abort(), 300);
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
  }, 10_000);
});

// A COMMIT whose answer never arrives (the connection drops right after it is sent): the store
// retries alone and finds the events stored, adding nothing, and the node that committed them
// must still put them out to its own sockets. A TCP proxy in front of PostgreSQL cuts the
// connection that sends the armed COMMIT, after passing it on.
import net from "node:net";
import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../start-server";
import { api, startServerOn, TEST_ADMIN_TOKEN } from "../testing/test-server";
import { createTestDatabase, testProviders, type TestDatabase } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

/** A PostgreSQL proxy that, when armed, passes one simple-protocol COMMIT on and then cuts that client off unanswered. */
async function commitCutter(target: URL) {
  let armed = false;
  let cut = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.pipe(client);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (armed && chunk[0] === 0x51 && chunk.subarray(5, 11).toString() === "COMMIT") {
        armed = false;
        cut++;
        upstream.unpipe(client);
        setTimeout(() => client.destroy(), 50); // the server commits; this side never hears it
      }
    });
    client.on("close", () => setTimeout(() => upstream.destroy(), 100));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    arm: () => (armed = true),
    cuts: () => cut,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe.each(testProviders().filter((p) => p === "postgres"))(
  "a commit whose outcome is unknown on %s",
  (provider) => {
    let db: TestDatabase;
    let node: RunningServer;
    let proxy: Awaited<ReturnType<typeof commitCutter>>;
    beforeAll(async () => {
      db = await createTestDatabase(provider);
      proxy = await commitCutter(new URL(db.url));
      node = await startServerOn(db, { DATABASE_URL: proxy.url, PODWATCH_NODE_ID: "cut" });
    });
    afterAll(async () => {
      await node?.close();
      await proxy?.close();
      await db?.drop();
    });

    it("is announced to the committing node's own sockets once the retry finds it stored", async () => {
      const podId: string = (
        await api(node.url, "POST", "/api/v1/pods", { name: "unknown outcome", mode: "collaboration" })
      ).body.id;
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(node.url, {
        transports: ["websocket"],
        forceNew: true,
        auth: { token: TEST_ADMIN_TOKEN },
      });
      const seqs: number[] = [];
      let live = false;
      socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: 0 }));
      socket.on("tape:events", (f, ack) => (ack?.(), seqs.push(...f.events.map((e) => e.seq))));
      socket.on("tape:live", () => (live = true));
      try {
        for (let i = 0; i < 300 && !live; i++) await new Promise((r) => setTimeout(r, 10));
        expect(live).toBe(true);
        proxy.arm();
        const r = await api(node.url, "POST", `/api/v1/pods/${podId}/events`, {
          id: randomUUID(),
          type: "note",
          actor: "impl",
          body: { kind: "STATUS", text: "committed, unanswered" },
        });
        expect(proxy.cuts()).toBe(1);
        expect(r.status).toBe(201); // the retry found it stored
        const seq: number = r.body.events[0].seq;
        for (let i = 0; i < 300 && !seqs.includes(seq); i++) await new Promise((r) => setTimeout(r, 10));
        expect(seqs).toEqual([seq]);
      } finally {
        socket.close();
      }
    }, 30_000);
  },
);

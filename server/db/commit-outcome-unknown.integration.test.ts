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

/** What the proxy cuts after: a simple-protocol COMMIT, or a call of the one-round-trip append (postgres-append-planned.ts). */
type Cut = "commit" | "planned";
const cutHere = (chunk: Buffer, cut: Cut) =>
  cut === "commit"
    ? chunk[0] === 0x51 && chunk.subarray(5, 11).toString() === "COMMIT"
    : chunk.includes("podwatch_append_planned");

/** A PostgreSQL proxy that, when armed, passes one commit on and then cuts that client off unanswered. */
async function commitCutter(target: URL) {
  let armed: Cut | null = null;
  let cut = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
    upstream.pipe(client);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      if (armed && cutHere(chunk, armed)) {
        armed = null;
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
    arm: (cut: Cut = "commit") => (armed = cut),
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

    const note = (text: string) => ({
      id: randomUUID(),
      type: "note",
      actor: "impl",
      body: { kind: "STATUS", text },
    });

    /** `before`: events posted un-armed first (the node then knows the pod's head and plans on it). */
    async function cutAndAnnounced(cut: Cut, before: number) {
      const podId: string = (
        await api(node.url, "POST", "/api/v1/pods", { name: "unknown outcome", mode: "collaboration" })
      ).body.id;
      for (let i = 0; i < before; i++)
        expect(
          (await api(node.url, "POST", `/api/v1/pods/${podId}/events`, note(`before ${i}`))).status,
        ).toBe(201);
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(node.url, {
        transports: ["websocket"],
        forceNew: true,
        auth: { token: TEST_ADMIN_TOKEN },
      });
      const seqs: number[] = [];
      let live = false;
      socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: before }));
      socket.on("tape:events", (f, ack) => (ack?.(), seqs.push(...f.events.map((e) => e.seq))));
      socket.on("tape:live", () => (live = true));
      try {
        for (let i = 0; i < 300 && !live; i++) await new Promise((r) => setTimeout(r, 10));
        expect(live).toBe(true);
        const cuts = proxy.cuts();
        proxy.arm(cut);
        const r = await api(node.url, "POST", `/api/v1/pods/${podId}/events`, note("committed, unanswered"));
        expect(proxy.cuts()).toBe(cuts + 1);
        expect(r.status).toBe(201); // the retry found it stored
        const seq: number = r.body.events[0].seq;
        for (let i = 0; i < 300 && !seqs.includes(seq); i++) await new Promise((r) => setTimeout(r, 10));
        expect(seqs).toEqual([seq]);
      } finally {
        socket.close();
      }
    }

    it("is announced to the committing node's own sockets once the retry finds it stored", async () => {
      await cutAndAnnounced("commit", 0);
    }, 30_000);

    it("is announced so too when the group was written in one round trip", async () => {
      await cutAndAnnounced("planned", 2);
    }, 30_000);
  },
);

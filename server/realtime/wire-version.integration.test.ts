import { randomUUID } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, TEST_ADMIN_TOKEN, type TestServer } from "../testing/test-server";
import { type ClientToServerEvents, type ServerToClientEvents, WIRE_VERSION } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const note = (text: string) => ({
  id: randomUUID(),
  type: "note",
  actor: "impl",
  body: { kind: "STATUS", text },
});

describe("socket frames", () => {
  let s: TestServer;
  let socket: Client;
  beforeAll(async () => {
    s = await startTestServer("sqlite");
    socket = connect(s.url, { transports: ["websocket"], forceNew: true, auth: { token: TEST_ADMIN_TOKEN } });
    await new Promise((resolve) => socket.once("connect", () => resolve(undefined)));
  });
  afterAll(async () => (socket.close(), await s.stop()));

  it("carry the wire version, every one the server sends", async () => {
    const podId: string = (
      await api(s.url, "POST", "/api/v1/pods", { name: "versioned", mode: "collaboration" })
    ).body.id;
    expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note("backlog"))).status).toBe(201);
    const frames: unknown[] = [];

    await new Promise<void>((joined) => socket.emit("pods:subscribe", () => joined()));
    const changed = new Promise((resolve) => socket.once("pods:changed", resolve));
    await api(s.url, "POST", "/api/v1/pods", { name: "another", mode: "collaboration" });
    frames.push(await changed);

    const backlog = new Promise((resolve) =>
      socket.once("tape:events", (frame, ack) => (ack?.(), resolve(frame))),
    );
    const live = new Promise((resolve) => socket.once("tape:live", resolve));
    socket.emit("tape:subscribe", { podId, afterSeq: 0 });
    frames.push(await backlog, await live);

    const liveFrame = new Promise((resolve) => socket.once("tape:events", resolve));
    const count = new Promise((resolve) => socket.once("pods:count", resolve));
    await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note("live"));
    frames.push(await liveFrame, await count);

    const error = new Promise((resolve) => socket.once("tape:error", resolve));
    socket.emit("tape:subscribe", { podId: "no-such-pod", afterSeq: 0 });
    frames.push(await error);

    expect(frames).toHaveLength(6);
    for (const frame of frames) expect(frame).toMatchObject({ v: WIRE_VERSION });
    expect(WIRE_VERSION).toBe(1);
  });
});

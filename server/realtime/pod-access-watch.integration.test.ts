// Removing a person's access to a pod ends their live view of it at once: their
// socket stops receiving the pod's tape and counts (the credential itself stays valid).
import { io as connect, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import type { ClientToServerEvents, ServerToClientEvents } from "../wire/socket";

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const note = (text: string) => ({ type: "note", actor: "admin", body: { kind: "STATUS", text } });

describe.each(testProviders())("pod access on live sockets on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(provider);
  });
  afterAll(() => s.stop());

  async function person(email: string) {
    const password = "a long enough password";
    expect((await api(s.url, "POST", "/api/v1/users", { email, name: email, password })).status).toBe(201);
    const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: s.url },
      body: JSON.stringify({ email, password }),
    });
    return res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
  }

  it("a person removed from a pod stops receiving its tape at once, and is told", async () => {
    const podId: string = (
      await api(s.url, "POST", "/api/v1/pods", { name: "watched", mode: "collaboration" })
    ).body.id;
    const email = `viewer-${provider}@example.com`;
    const cookie = await person(email);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: email,
          kind: "human",
          displayName: "Vic",
          roles: ["viewer"],
        })
      ).status,
    ).toBe(201);
    const socket: Client = connect(s.url, {
      transports: ["websocket"],
      forceNew: true,
      extraHeaders: { cookie, origin: s.url },
    });
    const texts: string[] = [];
    const errors: string[] = [];
    socket.on("tape:events", (f, ack) => {
      ack?.();
      for (const e of f.events) if (e.type === "note") texts.push((e.body as { text: string }).text);
    });
    socket.on("tape:error", (e) => errors.push(e.message));
    try {
      await new Promise<void>((resolve) => {
        socket.once("tape:live", () => resolve());
        socket.on("connect", () => socket.emit("tape:subscribe", { podId, afterSeq: 0 }));
      });
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note("before"))).status).toBe(201);
      for (let i = 0; i < 100 && !texts.includes("before"); i++) await sleep(20);
      expect(texts).toContain("before");

      expect(
        (await api(s.url, "DELETE", `/api/v1/pods/${podId}/members/${encodeURIComponent(email)}`)).status,
      ).toBe(200);
      for (let i = 0; i < 100 && !errors.length; i++) await sleep(20);
      expect(errors.join(" ")).toMatch(/access/);
      expect((await api(s.url, "POST", `/api/v1/pods/${podId}/events`, note("after"))).status).toBe(201);
      await sleep(300);
      expect(texts).not.toContain("after");
      expect(socket.connected, "the credential is still valid: only this pod is gone").toBe(true);
    } finally {
      socket.close();
    }
  });
});

// One slow push service must not hold everyone's notifications: a "push service"
// that trickles one header line at a time keeps one person's device busy, while
// another person's push goes out at once; stopping the server does not wait on it.
import { randomUUID } from "node:crypto";
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { FakePushService, newSubscriptionKeys } from "../testing/push-service";

const PASSWORD = "a long enough password";

async function person(s: TestServer, podId: string, name: string) {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`;
  expect((await api(s.url, "POST", "/api/v1/users", { email, name, password: PASSWORD })).status).toBe(201);
  expect(
    (
      await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
        memberId: email,
        kind: "human",
        displayName: name,
        roles: ["approver"],
      })
    ).status,
  ).toBe(201);
  const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.url },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const session = {
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
  expect((await api(s.url, "PUT", "/api/v1/me/preferences", { email: false }, session)).status).toBe(200);
  return session;
}

describe.each(testProviders())("a slow push service on %s", (provider) => {
  const vapid = webpush.generateVAPIDKeys();
  const push = new FakePushService();
  const stuck = new Set<Socket>();
  const pit = createServer((socket) => {
    stuck.add(socket);
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.write("HTTP/1.1 201 Created\r\n");
      const t = setInterval(() => socket.write(`x-slow-${Date.now()}: 1\r\n`), 200);
      socket.on("close", () => (clearInterval(t), stuck.delete(socket)));
    });
  });
  let s: TestServer | null = null;
  let podId: string;
  let agent: string;

  beforeAll(async () => {
    await push.start();
    await new Promise<void>((r) => pit.listen(0, "127.0.0.1", r));
    s = await startTestServer(provider, {
      PODWATCH_SIGN_INS_PER_MINUTE: "1000",
      PODWATCH_VAPID_PUBLIC_KEY: vapid.publicKey,
      PODWATCH_VAPID_PRIVATE_KEY: vapid.privateKey,
      PODWATCH_PUSH_INSECURE_LOOPBACK: "1",
    });
    ({
      podId,
      tokens: { "impl-1": agent },
    } = (await agentPod(s.url, "Tarpit pod", { "impl-1": "implementer" })) as {
      podId: string;
      tokens: { "impl-1": string };
    });
  });
  afterAll(async () => {
    for (const socket of stuck) socket.destroy();
    await new Promise<void>((r) => pit.close(() => r()));
    await s?.stop();
    await push.stop();
  });

  const escalate = (escalationId: string) =>
    api(
      s!.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl-1",
        body: { escalationId, kind: "intent", question: `Ship ${escalationId}?`, options: ["Go"] },
      },
      { token: agent },
    );

  it("another person's push is not held behind it, and stopping does not wait for it", async () => {
    const server = s!;
    // Mallory's device is a tarpit, already holding a push when Bea's item arrives.
    const mallory = await person(server, podId, "Mallory");
    const mk = newSubscriptionKeys();
    const pitUrl = `http://127.0.0.1:${(pit.address() as AddressInfo).port}/push/tarpit`;
    expect(
      (
        await api(
          server.url,
          "POST",
          "/api/v1/me/push/devices",
          { endpoint: pitUrl, keys: { p256dh: mk.p256dh, auth: mk.authB64 } },
          mallory,
        )
      ).status,
    ).toBe(201);
    expect((await escalate("esc-slow")).status).toBe(201);
    for (let i = 0; i < 50 && stuck.size === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(stuck.size).toBe(1);

    const bea = await person(server, podId, "Bea");
    const bk = newSubscriptionKeys();
    expect(
      (
        await api(
          server.url,
          "POST",
          "/api/v1/me/push/devices",
          { endpoint: `${push.origin}/push/bea`, keys: { p256dh: bk.p256dh, auth: bk.authB64 } },
          bea,
        )
      ).status,
    ).toBe(201);
    const started = Date.now();
    expect((await escalate("esc-fast")).status).toBe(201);
    // Bea's push (esc-fast; she joined after esc-slow) arrives within a few seconds, while the tarpit
    // still holds Mallory's esc-slow (and soon esc-fast too: she may answer it as well).
    await push.waitFor("/push/bea", 1, 4_000);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(stuck.size).toBeGreaterThanOrEqual(1);

    // Stopping the server does not wait on the tarpit.
    const stopping = Date.now();
    await server.stop();
    s = null;
    expect(Date.now() - stopping).toBeLessThan(5_000);
  }, 30_000);
});

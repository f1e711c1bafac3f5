// One person's hung devices take only their share of the push slots: Ann has 20 devices at a push
// service that accepts the connection and never answers, and 3 inbox items for each of them, while
// Bo, on another pod, gets his push within a second of the event. Ann's devices are tried a few at a
// time (PUSH_SLOTS_PER_PERSON), one request per device, each cut at the push deadline.
import { randomUUID } from "node:crypto";
import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { FakePushService, newSubscriptionKeys } from "../testing/push-service";
import { PUSH_SLOTS_PER_PERSON } from "./fair-share";
import { MAX_DEVICES } from "./push-devices";

const PASSWORD = "a long enough password";

type Session = { cookie: string };

async function person(s: TestServer, podId: string, name: string): Promise<Session> {
  const email = `${name.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`;
  expect((await api(s.url, "POST", "/api/v1/users", { email, name, password: PASSWORD })).status).toBe(201);
  const member = { memberId: email, kind: "human", displayName: name, roles: ["approver"] };
  expect((await api(s.url, "POST", `/api/v1/pods/${podId}/members`, member)).status).toBe(201);
  const res = await fetch(`${s.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: s.url },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  expect((await api(s.url, "PUT", "/api/v1/me/preferences", { email: false }, { cookie })).status).toBe(200);
  return { cookie };
}

async function addDevice(s: TestServer, who: Session, endpoint: string) {
  const { p256dh, authB64 } = newSubscriptionKeys();
  const body = { endpoint, keys: { p256dh, auth: authB64 } };
  expect((await api(s.url, "POST", "/api/v1/me/push/devices", body, who)).status).toBe(201);
}

describe.each(testProviders())("push slots shared fairly on %s", (provider) => {
  const vapid = webpush.generateVAPIDKeys();
  const push = new FakePushService();
  /** Open connections at the hung push service, with the path each asked for. */
  const hung = new Map<Socket, string>();
  const pit = createServer((socket) => {
    hung.set(socket, "");
    socket.on("error", () => {});
    socket.once("data", (d: Buffer) => hung.set(socket, d.toString("latin1").split(" ")[1] ?? ""));
    socket.on("close", () => hung.delete(socket));
  });
  let s: TestServer | null = null;

  beforeAll(async () => {
    await push.start();
    await new Promise<void>((r) => pit.listen(0, "127.0.0.1", r));
    s = await startTestServer(provider, {
      PODWATCH_SIGN_INS_PER_MINUTE: "1000",
      PODWATCH_VAPID_PUBLIC_KEY: vapid.publicKey,
      PODWATCH_VAPID_PRIVATE_KEY: vapid.privateKey,
      PODWATCH_PUSH_INSECURE_LOOPBACK: "1",
    });
  });
  afterAll(async () => {
    for (const socket of hung.keys()) socket.destroy();
    await new Promise<void>((r) => pit.close(() => r()));
    await s?.stop();
    await push.stop();
  });

  const pod = async (name: string) => {
    const made = await agentPod(s!.url, name, { "impl-1": "implementer" });
    return made as { podId: string; tokens: { "impl-1": string } };
  };
  const escalate = (p: { podId: string; tokens: { "impl-1": string } }, escalationId: string) =>
    api(
      s!.url,
      "POST",
      `/api/v1/pods/${p.podId}/events`,
      {
        type: "escalation",
        actor: "impl-1",
        body: { escalationId, kind: "intent", question: `Ship ${escalationId}?`, options: ["Go"] },
      },
      { token: p.tokens["impl-1"] },
    );

  it("another person's push goes out within a second while 20 hung devices wait their turn", async () => {
    const server = s!;
    const annPod = await pod("Ann's pod");
    const boPod = await pod("Bo's pod");
    const ann = await person(server, annPod.podId, "Ann");
    const pitOrigin = `http://127.0.0.1:${(pit.address() as AddressInfo).port}`;
    for (let i = 0; i < MAX_DEVICES; i++) await addDevice(server, ann, `${pitOrigin}/push/ann-${i}`);
    const bo = await person(server, boPod.podId, "Bo");
    await addDevice(server, bo, `${push.origin}/push/bo`);

    // What Bo's push takes with nobody hung, on this machine now: the rest is what Ann's devices cost him.
    const quiet = Date.now();
    expect((await escalate(boPod, "b-0")).status).toBe(201);
    await push.waitFor("/push/bo", 1, 10_000);
    const baseline = Date.now() - quiet;

    // Ann's 3 items: 60 pushes, every one of them to a device that never answers.
    for (const id of ["a-1", "a-2", "a-3"]) expect((await escalate(annPod, id)).status).toBe(201);
    for (let i = 0; i < 100 && hung.size < PUSH_SLOTS_PER_PERSON; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(hung.size).toBe(PUSH_SLOTS_PER_PERSON);

    const appended = Date.now();
    expect((await escalate(boPod, "b-1")).status).toBe(201);
    await push.waitFor("/push/bo", 2, 10_000);
    const took = Date.now() - appended;
    expect(took - baseline).toBeLessThan(1_000);

    // Ann still holds no more than her share, one request per device.
    const paths = [...hung.values()];
    expect(paths.length).toBeLessThanOrEqual(PUSH_SLOTS_PER_PERSON);
    expect(new Set(paths).size).toBe(paths.length);

    // At the push deadline Ann's first requests are cut and counted as failed attempts, kept for their
    // retry; her next devices take the freed slots.
    const rows = server.app.store.prisma.notificationDelivery;
    const failed = {
      podId: annPod.podId,
      attempts: 1,
      outcome: null,
      notBefore: { gt: new Date().toISOString() },
    };
    for (let i = 0; i < 200 && (await rows.count({ where: failed })) < PUSH_SLOTS_PER_PERSON; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(await rows.count({ where: failed })).toBe(PUSH_SLOTS_PER_PERSON);
    expect(await rows.count({ where: { outcome: null } })).toBe(3 * MAX_DEVICES);
    for (let i = 0; i < 100 && ![...hung.values()].includes(`/push/ann-${PUSH_SLOTS_PER_PERSON}`); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect([...hung.values()]).toContain(`/push/ann-${PUSH_SLOTS_PER_PERSON}`);
  }, 60_000);
});

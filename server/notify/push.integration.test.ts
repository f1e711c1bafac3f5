// Web Push end to end against the real server and database: the test plays the
// push service (loopback), holds the subscription's keys, checks each request's
// VAPID signature and decrypts its body (RFC 8291) itself. An escalation sends a
// notification with its options as buttons; answering it from the notification
// records the person on the tape and withdraws it everywhere; a gone device is
// pruned; preferences, quiet hours and retries; mail per preferences.
import { randomUUID } from "node:crypto";
import { SMTPServer } from "smtp-server";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { FakePushService, decryptPush, newSubscriptionKeys, verifyVapid } from "../testing/push-service";
import { TEST_WRITER } from "../testing/test-writer";

const PASSWORD = "a long enough password";

async function signIn(base: string, email: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  return {
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; "),
  };
}

const act = (
  s: TestServer,
  session: { cookie: string },
  body: unknown,
  headers: Record<string, string> = {},
) =>
  fetch(`${s.url}/api/v1/me/inbox/act`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      cookie: session.cookie,
      origin: s.url,
      "x-podwatch-request": "notification",
      "sec-fetch-site": "same-origin",
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe.each(testProviders())("web push on %s", (provider) => {
  const vapid = webpush.generateVAPIDKeys();
  const push = new FakePushService();
  const mails: { to: string[]; body: string }[] = [];
  let smtp: SMTPServer;
  let s: TestServer;
  let podId: string;
  let agent: string;
  const email = `pia-${randomUUID().slice(0, 6)}@example.com`;
  let session: { cookie: string };
  const keys = newSubscriptionKeys();
  let deviceId: string;

  beforeAll(async () => {
    await push.start();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, sess, done) {
        let body = "";
        stream.on("data", (c: Buffer) => (body += c.toString("utf8")));
        stream.on(
          "end",
          () => (mails.push({ to: sess.envelope.rcptTo.map((r) => r.address), body }), done()),
        );
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    s = await startTestServer(provider, {
      PODWATCH_SIGN_INS_PER_MINUTE: "1000",
      PODWATCH_VAPID_PUBLIC_KEY: vapid.publicKey,
      PODWATCH_VAPID_PRIVATE_KEY: vapid.privateKey,
      PODWATCH_VAPID_SUBJECT: "mailto:ops@example.com",
      PODWATCH_NOTIFY_RETRY_MS: "50",
      PODWATCH_PUSH_INSECURE_LOOPBACK: "1",
      PODWATCH_DEADLINE_MIN_MS: "1000",
      PODWATCH_SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    });
    ({
      podId,
      tokens: { "impl-1": agent },
    } = (await agentPod(s.url, "Push pod", { "impl-1": "implementer" })) as {
      podId: string;
      tokens: { "impl-1": string };
    });
    expect(
      (await api(s.url, "POST", "/api/v1/users", { email, name: "Pia", password: PASSWORD })).status,
    ).toBe(201);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: email,
          kind: "human",
          displayName: "Pia",
          roles: ["approver"],
        })
      ).status,
    ).toBe(201);
    session = await signIn(s.url, email);
    // Mail is tested on its own below: here only push.
    expect((await api(s.url, "PUT", "/api/v1/me/preferences", { email: false }, session)).status).toBe(200);
  });
  afterAll(async () => {
    await s?.stop();
    await push.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  const escalate = (escalationId: string, options: string[], kind = "intent") =>
    api(
      s.url,
      "POST",
      `/api/v1/pods/${podId}/events`,
      {
        type: "escalation",
        actor: "impl-1",
        body: { escalationId, kind, question: `Ship ${escalationId}?`, options },
      },
      { token: agent },
    );
  const deliveries = (itemId: string) =>
    s.app.store.prisma.notificationDelivery.findMany({ where: { podId, itemId }, orderBy: { id: "asc" } });
  const settle = async (itemId: string, done: (rows: Awaited<ReturnType<typeof deliveries>>) => boolean) => {
    for (let i = 0; i < 100; i++) {
      await s.app.outbox.drain();
      const rows = await deliveries(itemId);
      if (done(rows)) return rows;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`deliveries for ${itemId} did not settle: ${JSON.stringify(await deliveries(itemId))}`);
  };

  it("a device subscribes with the server's VAPID key; an http endpoint off loopback is refused", async () => {
    const info = await api(s.url, "GET", "/api/v1/me/push", undefined, session);
    expect(info.body).toEqual({ publicKey: vapid.publicKey, devices: [] });
    const bad = await api(
      s.url,
      "POST",
      "/api/v1/me/push/devices",
      { endpoint: "http://10.0.0.1/push", keys: { p256dh: keys.p256dh, auth: keys.authB64 } },
      session,
    );
    expect(bad.status).toBe(400);
    const r = await api(
      s.url,
      "POST",
      "/api/v1/me/push/devices",
      {
        endpoint: `${push.origin}/push/phone`,
        keys: { p256dh: keys.p256dh, auth: keys.authB64 },
        label: "Pia's phone",
      },
      session,
    );
    expect(r.status).toBe(201);
    deviceId = r.body.id;
    expect((await api(s.url, "GET", "/api/v1/me/push", undefined, session)).body.devices).toMatchObject([
      { id: deviceId, label: "Pia's phone" },
    ]);
    // Not the agent's, not anonymous.
    expect((await api(s.url, "GET", "/api/v1/me/push", undefined, { token: agent })).status).toBe(403);
    expect((await api(s.url, "GET", "/api/v1/me/push", undefined, null)).status).toBe(401);
  });

  it("an escalation reaches the device, signed and encrypted, with its options as buttons; answering it from the notification withdraws it", async () => {
    expect((await escalate("esc-1", ["Yes", "No"])).status).toBe(201);
    const [req] = await push.waitFor("/push/phone", 1);
    expect(req!.headers["content-encoding"]).toBe("aes128gcm");
    expect(Number(req!.headers.ttl)).toBeGreaterThan(0);
    const claims = verifyVapid(String(req!.headers.authorization), vapid.publicKey);
    expect(claims.aud).toBe(push.origin);
    expect(claims.sub).toBe("mailto:ops@example.com");
    expect(claims.exp * 1000).toBeGreaterThan(Date.now());
    const payload = JSON.parse(decryptPush(req!.body, keys));
    expect(payload).toMatchObject({
      type: "open",
      title: expect.stringContaining("Ship esc-1?"),
      body: expect.stringContaining("Push pod"),
      tag: `${podId}:escalation:esc-1`,
      data: { podId, itemId: "escalation:esc-1", url: `/pods/${podId}?tab=inbox` },
      actions: [
        { action: "option:0", title: "Yes" },
        { action: "option:1", title: "No" },
      ],
    });

    // CSRF: without the custom header, with JSON as a form, or from another site, nothing is recorded.
    const action = { podId, itemId: payload.data.itemId, action: "option:1" };
    expect((await act(s, session, action, { "x-podwatch-request": "" })).status).toBe(403);
    expect((await act(s, session, action, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await act(s, session, action, { origin: "https://evil.example" })).status).toBe(403);
    expect((await act(s, session, action, { "content-type": "text/plain" })).status).toBe(403);

    const ok = await act(s, session, action);
    expect(ok.status).toBe(200);
    const tape = (
      await api(s.url, "GET", `/api/v1/pods/${podId}/events?type=escalation.answered`, undefined, {
        token: agent,
      })
    ).body;
    const answered = (tape.events ?? tape).find(
      (e: { body: { escalationId: string } }) => e.body.escalationId === "esc-1",
    );
    expect(answered).toMatchObject({ actor: email, body: { answer: "No" } });

    const [, withdraw] = await push.waitFor("/push/phone", 2);
    expect(JSON.parse(decryptPush(withdraw!.body, keys))).toEqual({
      type: "withdraw",
      tag: `${podId}:escalation:esc-1`,
    });
    // Answered already: a second tap says so and records nothing.
    const stale = await act(s, session, action);
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("stale");
    // The outbox row taken again (as after a crash) sends nothing twice. The withdraw reached the
    // phone before its outcome was recorded, so wait for the record.
    const rows = await settle("escalation:esc-1", (r) => r.length >= 2 && r.every((d) => d.outcome));
    expect(rows.map((r) => [r.kind, r.outcome])).toEqual([
      ["open", "sent"],
      ["withdraw", "sent"],
    ]);
  });

  it("a viewer's tap is refused like the inbox's; an escalation with three options has no buttons", async () => {
    expect((await escalate("esc-3", ["A", "B", "C"])).status).toBe(201);
    const got = await push.waitFor("/push/phone", 3);
    expect(JSON.parse(decryptPush(got[2]!.body, keys))).toMatchObject({
      tag: `${podId}:escalation:esc-3`,
      actions: [],
    });
    expect((await act(s, session, { podId, itemId: "escalation:esc-3", action: "option:0" })).status).toBe(
      409,
    );
    expect(
      (
        await api(s.url, "PATCH", `/api/v1/pods/${podId}/members/${encodeURIComponent(email)}`, {
          access: "viewer",
        })
      ).status,
    ).toBe(200);
    expect((await act(s, session, { podId, itemId: "escalation:esc-3", action: "option:0" })).status).toBe(
      403,
    );
    expect(
      (
        await api(s.url, "PATCH", `/api/v1/pods/${podId}/members/${encodeURIComponent(email)}`, {
          access: "approver",
        })
      ).status,
    ).toBe(200);
  });

  it("a failing push service is retried; a device it says is gone (410) is removed", async () => {
    let fails = 2;
    push.status = (path) => (path === "/push/phone" && fails-- > 0 ? 503 : path === "/push/old" ? 410 : 201);
    const old = newSubscriptionKeys();
    const oldId = (
      await api(
        s.url,
        "POST",
        "/api/v1/me/push/devices",
        { endpoint: `${push.origin}/push/old`, keys: { p256dh: old.p256dh, auth: old.authB64 } },
        session,
      )
    ).body.id;
    const before = push.received.length;
    expect((await escalate("esc-4", ["Go"])).status).toBe(201);
    const rows = await settle("escalation:esc-4", (r) => r.length === 2 && r.every((d) => d.outcome));
    expect(rows.find((r) => r.target === deviceId)).toMatchObject({ outcome: "sent", attempts: 3 });
    expect(rows.find((r) => r.target === oldId)).toMatchObject({ outcome: "failed" });
    expect(await s.app.store.prisma.pushSubscription.findUnique({ where: { id: oldId } })).toBeNull();
    expect(push.received.slice(before).filter((p) => p.path === "/push/phone")).toHaveLength(1);
    push.status = () => 201;
  });

  it("preferences: nothing from a pod sends nothing; decisions only still sends decisions; quiet hours hold what is still open", async () => {
    expect(
      (await api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "none" }] }, session)).body
        .pods,
    ).toEqual([{ podId, podName: "Push pod", level: "none", mayAnswer: true }]);
    expect((await escalate("esc-5", ["Go"])).status).toBe(201);
    await s.app.outbox.drain();
    expect(await deliveries("escalation:esc-5")).toEqual([]);
    // The inbox keeps it, marked muted (out of the default view; the page offers "Show muted").
    const inbox = (await api(s.url, "GET", "/api/v1/inbox", undefined, session)).body.items as {
      id: string;
      muted: boolean;
    }[];
    expect(inbox.find((i) => i.id === "escalation:esc-5")?.muted).toBe(true);

    await api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "decisions" }] }, session);
    expect((await escalate("esc-6", ["Go"])).status).toBe(201);
    await settle("escalation:esc-6", (r) => r.length === 1 && r[0]!.outcome === "sent");
    expect(
      (
        (await api(s.url, "GET", "/api/v1/inbox", undefined, session)).body.items as {
          id: string;
          muted: boolean;
        }[]
      ).find((i) => i.id === "escalation:esc-6")?.muted,
    ).toBe(false);

    // Quiet all day but this minute's end: held until then, then sent only if still open.
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const now = new Date();
    const quiet = {
      start: hhmm(new Date(now.getTime() - 3_600_000)),
      end: hhmm(new Date(now.getTime() + 3_600_000)),
      timeZone: "UTC",
    };
    const saved = await api(s.url, "PUT", "/api/v1/me/preferences", { quietHours: quiet }, session);
    expect(saved.body.quietHours).toEqual(quiet);
    expect(
      (
        await api(
          s.url,
          "PUT",
          "/api/v1/me/preferences",
          { quietHours: { ...quiet, timeZone: "Mars/Olympus" } },
          session,
        )
      ).status,
    ).toBe(400);
    expect((await escalate("esc-7", ["Go"])).status).toBe(201);
    expect((await escalate("esc-8", ["Go"])).status).toBe(201);
    await s.app.outbox.drain();
    const held = [...(await deliveries("escalation:esc-7")), ...(await deliveries("escalation:esc-8"))];
    expect(held.map((d) => d.outcome)).toEqual([null, null]);
    expect(Date.parse(held[0]!.notBefore)).toBeGreaterThan(Date.now() + 3_000_000);
    // esc-8 is answered meanwhile; then the quiet hours end (the clock is moved to their end).
    expect((await act(s, session, { podId, itemId: "escalation:esc-8", action: "option:0" })).status).toBe(
      200,
    );
    await api(s.url, "PUT", "/api/v1/me/preferences", { quietHours: null }, session);
    await s.app.store.prisma.notificationDelivery.updateMany({
      where: { id: { in: held.map((d) => d.id) } },
      data: { notBefore: new Date().toISOString() },
    });
    expect((await settle("escalation:esc-7", (r) => r[0]!.outcome !== null))[0]!.outcome).toBe("sent");
    expect(
      (await settle("escalation:esc-8", (r) => r[0]!.outcome !== null)).map((d) => [d.kind, d.outcome]),
    ).toEqual([["open", "skipped"]]);
    await api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "all" }] }, session);
  });

  it("a notice for the pod's admins reaches an admin's device, not an approver's", async () => {
    const ada = `ada-${randomUUID().slice(0, 6)}@example.com`;
    expect(
      (await api(s.url, "POST", "/api/v1/users", { email: ada, name: "Ada", password: PASSWORD })).status,
    ).toBe(201);
    expect(
      (
        await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
          memberId: ada,
          kind: "human",
          displayName: "Ada",
          roles: ["admin"],
        })
      ).status,
    ).toBe(201);
    const adaSession = await signIn(s.url, ada);
    await api(s.url, "PUT", "/api/v1/me/preferences", { email: false }, adaSession);
    const adaKeys = newSubscriptionKeys();
    const adaDevice = (
      await api(
        s.url,
        "POST",
        "/api/v1/me/push/devices",
        { endpoint: `${push.origin}/push/ada`, keys: { p256dh: adaKeys.p256dh, auth: adaKeys.authB64 } },
        adaSession,
      )
    ).body.id as string;
    await s.app.append(
      podId,
      [
        {
          type: "notice.posted",
          actor: "podwatch",
          body: { noticeId: "n-1", title: "A webhook was disabled", audience: "admins" },
        },
      ],
      TEST_WRITER,
    );
    const rows = await settle("notice:n-1", (r) => r.length > 0 && r.every((d) => d.outcome));
    // Pia (approver) has a device too, but a notice is not hers to see.
    expect(rows.map((r) => [r.target, r.outcome])).toEqual([[adaDevice, "sent"]]);
    const [sent] = await push.waitFor("/push/ada", 1);
    expect(JSON.parse(decryptPush(sent!.body, adaKeys))).toMatchObject({
      type: "open",
      title: "A webhook was disabled",
      actions: [],
    });
  });

  it("a deadline with then: remind pushes the item again, marked overdue; Decisions only gets no reminder", async () => {
    const remindAt = () => new Date(Date.now() + 1_500).toISOString();
    const escalateDue = (escalationId: string) =>
      api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        {
          type: "escalation",
          actor: "impl-1",
          body: {
            escalationId,
            kind: "intent",
            question: `Ship ${escalationId}?`,
            options: ["Go"],
            deadline: { at: remindAt(), then: "remind" },
          },
        },
        { token: agent },
      );
    const pushesFor = async (tag: string) =>
      (await push.waitFor("/push/phone", 1))
        .map((p) => JSON.parse(decryptPush(p.body, keys)))
        .filter((p) => p.tag === tag);
    const passed = async (itemId: string) => {
      for (let i = 0; i < 100; i++) {
        const state = await s.app.store.readState(podId);
        if (state?.inbox[itemId]?.due?.passed) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${itemId}'s deadline did not pass`);
    };

    // Pia's device only (Ada, an admin since the notice test, gets hers too).
    const mine = async (itemId: string, done: (rows: Awaited<ReturnType<typeof deliveries>>) => boolean) =>
      (await settle(itemId, (r) => done(r.filter((d) => d.target === deviceId)))).filter(
        (d) => d.target === deviceId,
      );
    const r1 = await escalateDue("esc-r1");
    expect(r1.status, JSON.stringify(r1.body)).toBe(201);
    await mine("escalation:esc-r1", (r) => r.length === 1 && r[0]!.outcome === "sent");
    await passed("escalation:esc-r1");
    const rows = await mine("escalation:esc-r1", (r) => r.length === 2 && r.every((d) => d.outcome));
    expect(rows.map((r) => r.outcome)).toEqual(["sent", "sent"]);
    const [first, reminder] = await pushesFor(`${podId}:escalation:esc-r1`);
    expect(first).toMatchObject({ type: "open", title: "Ship esc-r1?" });
    expect(first.reminder).toBeUndefined();
    expect(reminder).toMatchObject({
      type: "open",
      title: "Overdue: Ship esc-r1?",
      body: expect.stringContaining("overdue"),
      reminder: true,
      actions: [{ action: "option:0", title: "Go" }],
    });
    // The outbox batch taken again adds nothing.
    await s.app.outbox.drain();
    expect((await deliveries("escalation:esc-r1")).filter((d) => d.target === deviceId)).toHaveLength(2);
    // Answered: one withdrawal closes the item's notification (its reminder shares the tag).
    expect((await act(s, session, { podId, itemId: "escalation:esc-r1", action: "option:0" })).status).toBe(
      200,
    );
    const closed = await mine("escalation:esc-r1", (r) =>
      r.some((d) => d.kind === "withdraw" && d.outcome === "sent"),
    );
    expect(closed.filter((d) => d.kind === "withdraw")).toHaveLength(1);

    // Decisions only: the escalation is pushed, its reminder is not.
    await api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "decisions" }] }, session);
    expect((await escalateDue("esc-r2")).status).toBe(201);
    await mine("escalation:esc-r2", (r) => r.length === 1 && r[0]!.outcome === "sent");
    await passed("escalation:esc-r2");
    await s.app.outbox.drain();
    await new Promise((r) => setTimeout(r, 300));
    expect(
      (await deliveries("escalation:esc-r2")).filter((d) => d.target === deviceId).map((d) => d.outcome),
    ).toEqual(["sent"]);
    expect(await pushesFor(`${podId}:escalation:esc-r2`)).toHaveLength(1);
    await api(s.url, "PUT", "/api/v1/me/preferences", { pods: [{ podId, level: "all" }] }, session);
  });

  it("a person has at most 20 devices: the 21st is refused with 409 too_many_devices; re-posting one of them still replaces it", async () => {
    const many = `max-${randomUUID().slice(0, 6)}@example.com`;
    expect(
      (await api(s.url, "POST", "/api/v1/users", { email: many, name: "Max", password: PASSWORD })).status,
    ).toBe(201);
    const maxSession = await signIn(s.url, many);
    const k = newSubscriptionKeys();
    const device = (n: number) => ({
      endpoint: `${push.origin}/push/max-${n}`,
      keys: { p256dh: k.p256dh, auth: k.authB64 },
    });
    for (let n = 1; n <= 20; n++)
      expect((await api(s.url, "POST", "/api/v1/me/push/devices", device(n), maxSession)).status).toBe(201);
    const refused = await api(s.url, "POST", "/api/v1/me/push/devices", device(21), maxSession);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: "too_many_devices",
      message: expect.stringContaining("Remove one"),
    });
    expect(
      (await api(s.url, "POST", "/api/v1/me/push/devices", { ...device(7), label: "renamed" }, maxSession))
        .status,
    ).toBe(201);
    const devices = (await api(s.url, "GET", "/api/v1/me/push", undefined, maxSession)).body.devices as {
      label: string;
      endpoint: string;
    }[];
    expect(devices).toHaveLength(20);
    expect(devices.find((d) => d.endpoint.endsWith("/push/max-7"))?.label).toBe("renamed");
  });

  it("another person posting a device's endpoint is refused (409) and the device stays its owner's, keys and all", async () => {
    const eve = `eve-${randomUUID().slice(0, 6)}@example.com`;
    expect(
      (await api(s.url, "POST", "/api/v1/users", { email: eve, name: "Eve", password: PASSWORD })).status,
    ).toBe(201);
    const eveSession = await signIn(s.url, eve);
    const before = await s.app.store.prisma.pushSubscription.findUnique({ where: { id: deviceId } });
    const theirs = newSubscriptionKeys();
    const taken = await api(
      s.url,
      "POST",
      "/api/v1/me/push/devices",
      {
        endpoint: before!.endpoint,
        keys: { p256dh: theirs.p256dh, auth: theirs.authB64 },
        label: "mine now",
      },
      eveSession,
    );
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("push_endpoint_taken");
    expect(await s.app.store.prisma.pushSubscription.findUnique({ where: { id: deviceId } })).toEqual(before);
    expect((await api(s.url, "GET", "/api/v1/me/push", undefined, eveSession)).body.devices).toEqual([]);
    // Its owner re-posting it replaces their own (new keys, as after the browser renewed them).
    const renewed = await api(
      s.url,
      "POST",
      "/api/v1/me/push/devices",
      { endpoint: before!.endpoint, keys: { p256dh: keys.p256dh, auth: keys.authB64 }, label: "Pia's phone" },
      session,
    );
    expect([renewed.status, renewed.body.id]).toEqual([201, deviceId]);
  });

  it("mails a new item when SMTP is set and the person wants mail", async () => {
    await api(s.url, "PUT", "/api/v1/me/preferences", { email: true }, session);
    expect((await escalate("esc-9", ["Go"])).status).toBe(201);
    await settle("escalation:esc-9", (r) => r.some((d) => d.channel === "email" && d.outcome === "sent"));
    const mail = mails.find((m) => m.body.includes("esc-9"));
    expect(mail?.to).toEqual([email]);
    expect(mail!.body.replace(/=\r?\n/g, "").replace(/=3D/g, "=")).toContain(
      `${s.url}/pods/${podId}?tab=inbox`,
    );
  });
});

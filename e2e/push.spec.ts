// Web Push in Chromium, end to end: the test plays the push service on loopback (headless
// Chromium cannot subscribe to a real one offline), so it makes the subscription's keys,
// registers this device through the API with the person's session, decrypts what the server
// pushes (RFC 8291), and hands that same payload to podwatch's service worker through the
// DevTools protocol. The worker shows the notification with its buttons; a button answers the
// escalation as the person; an item answered elsewhere is withdrawn from the device.
import type { CDPSession, Page, Worker } from "@playwright/test";
import { FakePushService, decryptPush, newSubscriptionKeys } from "../server/testing/push-service";
import { test, expect, createPod, createPerson, postEvents, signIn, ev, adminHeaders } from "./fixtures";

type Shown = { title: string; body: string; tag: string; actions: string[]; buttons: string[] };
type WorkerScope = {
  registration: {
    getNotifications(filter?: {
      tag?: string;
    }): Promise<{ title: string; body: string; tag: string; actions: { action: string; title: string }[] }[]>;
  };
  handleNotificationClick(
    n: unknown,
    action: string,
  ): Promise<{ ok: boolean; status?: number; message?: string }>;
};

/** The notifications podwatch's worker shows now. */
const shown = (sw: Worker) =>
  sw.evaluate(async () => {
    const g = self as unknown as WorkerScope;
    return (await g.registration.getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      actions: n.actions.map((a) => a.action),
      buttons: n.actions.map((a) => a.title),
    }));
  }) as Promise<Shown[]>;

/** The service worker's registration id, as DevTools knows it (needed to deliver a push to it). */
async function registrationId(cdp: CDPSession, scope: string): Promise<string> {
  const found = new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const r = registrations.find((x) => x.scopeURL === scope && !x.isDeleted);
      if (r) resolve(r.registrationId);
    });
  });
  await cdp.send("ServiceWorker.enable");
  return found;
}

async function registerWorker(page: Page) {
  const sw = page.context().serviceWorkers()[0] ?? page.context().waitForEvent("serviceworker");
  await page.evaluate(async () => {
    await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
  });
  return sw;
}

test("a push reaches the service worker; its button answers the escalation as the person; an item answered elsewhere is withdrawn", async ({
  page,
  context,
  request,
  baseURL,
}) => {
  const push = new FakePushService();
  await push.start();
  try {
    const pod = await createPod(request);
    await postEvents(request, pod.id, [
      ev("member.joined", "admin", { memberId: "impl", kind: "agent", displayName: "Implementer" }),
      ev("pod.scope_agreed", "admin", { scope: "Ship the login page", successCriteria: ["it ships"] }),
      ev("pod.started", "admin", {}),
    ]);
    const person = await createPerson(request, pod.id, "approver");
    await context.grantPermissions(["notifications"], { origin: baseURL });
    await signIn(context, person);
    await page.goto("/notifications");
    await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
    const sw = await registerWorker(page);
    const cdp = await context.newCDPSession(page);
    const regId = await registrationId(cdp, `${baseURL}/`);

    // This device, subscribed with keys the test holds (as a browser would hand them out).
    const keys = newSubscriptionKeys();
    const me = { origin: baseURL!, "content-type": "application/json" };
    const added = await context.request.post("/api/v1/me/push/devices", {
      headers: me,
      data: {
        endpoint: `${push.origin}/push/e2e`,
        keys: { p256dh: keys.p256dh, auth: keys.authB64 },
        label: "E2E phone",
      },
    });
    expect(added.status(), await added.text()).toBe(201);
    const deviceId = ((await added.json()) as { id: string }).id;

    /** Waits for the next push at the device's endpoint, decrypts it, and delivers it to the worker as the browser would. */
    let seen = 0;
    const nextPush = async () => {
      const got = await push.waitFor("/push/e2e", ++seen, 20_000);
      const text = decryptPush(got[seen - 1]!.body, keys);
      await cdp.send("ServiceWorker.deliverPushMessage", {
        origin: baseURL!,
        registrationId: regId,
        data: text,
      });
      return JSON.parse(text) as {
        type: string;
        title?: string;
        body?: string;
        tag: string;
        actions?: { action: string; title: string }[];
        data?: { itemId: string };
      };
    };

    await postEvents(request, pod.id, [
      ev("escalation", "impl", {
        escalationId: "ship",
        kind: "intent",
        question: "Ship the login page today?",
        options: ["Ship it", "Wait"],
      }),
    ]);
    const payload = await nextPush();
    expect(payload).toMatchObject({
      type: "open",
      title: "Ship the login page today?",
      body: expect.stringContaining(pod.name),
      tag: `${pod.id}:escalation:ship`,
      actions: [
        { action: "option:0", title: "Ship it" },
        { action: "option:1", title: "Wait" },
      ],
      data: { itemId: "escalation:ship" },
    });
    await expect
      .poll(() => shown(sw))
      .toEqual([
        {
          title: "Ship the login page today?",
          body: payload.body,
          tag: payload.tag,
          actions: ["option:0", "option:1"],
          buttons: ["Ship it", "Wait"],
        },
      ]);

    // The person taps "Wait" on the notification: the worker answers through their session.
    const result = await sw.evaluate(async (tag) => {
      const g = self as unknown as WorkerScope;
      const [n] = await g.registration.getNotifications({ tag });
      return g.handleNotificationClick(n, "option:1");
    }, payload.tag);
    expect(result).toEqual({ ok: true });
    const answered = await request.get(`/api/v1/pods/${pod.id}/events?type=escalation.answered`, {
      headers: adminHeaders,
    });
    const events = (
      (await answered.json()) as {
        events: { actor: string; body: { escalationId: string; answer: string } }[];
      }
    ).events;
    expect(events).toEqual([
      expect.objectContaining({
        actor: person.email,
        body: expect.objectContaining({ escalationId: "ship", answer: "Wait" }),
      }),
    ]);
    // The tapped notification closed; the answer also withdraws it from every device.
    expect(await shown(sw)).toEqual([]);
    expect(await nextPush()).toEqual({ type: "withdraw", tag: payload.tag });

    // A second escalation, answered elsewhere (the inbox of another tab): its notification goes away.
    await postEvents(request, pod.id, [
      ev("escalation", "impl", {
        escalationId: "rollback",
        kind: "intent",
        question: "Roll back the cache change?",
        options: ["Roll back"],
      }),
    ]);
    const second = await nextPush();
    expect(second).toMatchObject({
      type: "open",
      tag: `${pod.id}:escalation:rollback`,
      actions: [{ action: "option:0", title: "Roll back" }],
    });
    await expect.poll(async () => (await shown(sw)).map((n) => n.tag)).toEqual([second.tag]);
    const inbox = await context.newPage();
    await inbox.goto("/inbox");
    const item = inbox.getByTestId("inbox-item").filter({ hasText: "Roll back the cache change?" });
    await item.getByRole("button", { name: "Roll back" }).click();
    await expect(item).toHaveCount(0);
    expect(await nextPush()).toEqual({ type: "withdraw", tag: second.tag });
    await expect.poll(() => shown(sw)).toEqual([]);

    // A button on an item answered meanwhile records nothing and tells the person so.
    const stale = await context.request.post("/api/v1/me/inbox/act", {
      headers: { ...me, "x-podwatch-request": "notification" },
      data: { podId: pod.id, itemId: "escalation:ship", action: "option:0" },
    });
    expect(stale.status()).toBe(409);

    // The device is listed on the Notifications page and can be removed there.
    await page.reload();
    const devices = page.getByTestId("push-devices");
    await expect(devices).toContainText("E2E phone");
    await devices.getByRole("button", { name: "Remove E2E phone" }).click();
    await devices
      .getByRole("group", { name: "Confirm removing E2E phone" })
      .getByRole("button", { name: "Yes, remove" })
      .click();
    await expect(page.getByText("No device receives push yet.")).toBeVisible();
    const left = await context.request.get("/api/v1/me/push");
    expect(((await left.json()) as { devices: { id: string }[] }).devices.map((d) => d.id)).not.toContain(
      deviceId,
    );
  } finally {
    await push.stop();
  }
});

test("the Notifications page saves a pod's level and quiet hours", async ({ page, context, request }) => {
  const pod = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto("/notifications");
  await expect(page.getByText("No device receives push yet.")).toBeVisible();

  const level = page.getByRole("combobox", { name: `What ${pod.name} sends you` });
  await expect(level).toHaveValue("all");
  await level.selectOption({ label: "Decisions only" });
  await expect(page.getByText(`Saved: ${pod.name}.`)).toBeVisible();

  const quiet = page.getByRole("form", { name: "Quiet hours" });
  await quiet.getByLabel("From").fill("21:30");
  await quiet.getByLabel("Until").fill("06:45");
  await quiet.getByLabel("Time zone").fill("Europe/Berlin");
  await quiet.getByRole("button", { name: "Save quiet hours" }).click();
  await expect(page.getByText("Saved: quiet hours.")).toBeVisible();
  await expect(quiet).toContainText("On: 21:30–06:45 (Europe/Berlin).");

  // A time zone that does not exist is refused in the form, and nothing changes.
  await quiet.getByLabel("Time zone").fill("Mars/Olympus");
  await quiet.getByRole("button", { name: "Save quiet hours" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not a time zone name" })).toBeVisible();

  // Kept across a reload (read back from the server).
  await page.reload();
  await expect(page.getByRole("combobox", { name: `What ${pod.name} sends you` })).toHaveValue("decisions");
  await expect(page.getByRole("form", { name: "Quiet hours" })).toContainText(
    "On: 21:30–06:45 (Europe/Berlin).",
  );
  const prefs = (await (await context.request.get("/api/v1/me/preferences")).json()) as {
    quietHours: unknown;
    pods: { podId: string; level: string }[];
  };
  expect(prefs.quietHours).toEqual({ start: "21:30", end: "06:45", timeZone: "Europe/Berlin" });
  expect(prefs.pods.find((p) => p.podId === pod.id)?.level).toBe("decisions");

  await page.getByRole("button", { name: "Turn quiet hours off" }).click();
  await expect(page.getByRole("form", { name: "Quiet hours" })).toContainText("Off.");
});

test("the pod page shows what the pod sends this person and changes it in place", async ({
  page,
  context,
  request,
}) => {
  const pod = await createPod(request);
  await signIn(context, await createPerson(request, pod.id, "approver"));
  await page.goto(`/pods/${pod.id}`);
  const control = page.getByTestId("pod-notify-level");
  const level = control.getByRole("combobox", { name: "Notifications from this pod" });
  await expect(level).toHaveValue("all");
  await level.focus();
  await expect(level).toBeFocused();
  await level.selectOption({ label: "Nothing" });
  await expect(control.getByRole("status")).toHaveText("Saved.");
  const prefs = (await (await context.request.get("/api/v1/me/preferences")).json()) as {
    pods: { podId: string; level: string }[];
  };
  expect(prefs.pods.find((p) => p.podId === pod.id)?.level).toBe("none");

  // Kept across a reload; the link leads to this pod's row on the Notifications page.
  await page.reload();
  await expect(level).toHaveValue("none");
  await control.getByRole("link", { name: "Push, quiet hours…" }).click();
  await expect(page).toHaveURL(new RegExp(`/notifications#pod-${pod.id}$`));
  await expect(page.getByRole("combobox", { name: `What ${pod.name} sends you` })).toHaveValue("none");
});

// podwatch's service worker: shows Web Push notifications for new inbox items,
// closes them when the item is answered elsewhere, and answers from a
// notification's buttons through the person's session (POST /api/v1/me/inbox/act).
// Plain JavaScript, served as is (no build step).

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** Shows (or withdraws) what a push says. */
async function showPush(payload) {
  if (payload.type === "withdraw") {
    for (const n of await self.registration.getNotifications({ tag: payload.tag })) n.close();
    return;
  }
  await self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.tag,
    data: payload.data,
    actions: payload.actions || [],
    icon: "/icons/icon-192.png",
    badge: "/icons/badge-96.png",
    timestamp: Date.parse(payload.at) || Date.now(),
    requireInteraction: (payload.actions || []).length > 0,
    // A reminder (the item's deadline passed) replaces the item's notification and alerts again.
    renotify: payload.reminder === true,
  });
}

self.addEventListener("push", (event) => {
  let payload = null;
  try {
    payload = event.data ? event.data.json() : null;
  } catch {
    payload = null;
  }
  if (payload) event.waitUntil(showPush(payload));
});

/** Tell the person, on the device, what became of their tap. */
async function say(title, body, tag) {
  await self.registration.showNotification(title, { body, tag, icon: "/icons/icon-192.png" });
}

/**
 * What a click does: a button answers the item through the server (as the signed-in person),
 * a tap on the body opens the item. Named so tests can call it in the worker.
 */
async function handleNotificationClick(notification, action) {
  const data = notification.data || {};
  notification.close();
  // "open" (Open in podwatch) is offered where the notification cannot show enough to answer from it.
  if (!action || action === "open") return openItem(data.url || "/inbox");
  let res;
  try {
    res = await fetch("/api/v1/me/inbox/act", {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/json", "x-podwatch-request": "notification" },
      body: JSON.stringify({ podId: data.podId, itemId: data.itemId, action }),
    });
  } catch {
    return say("Not sent", "podwatch could not be reached; nothing was recorded. Try again from the inbox.", `${notification.tag}:result`);
  }
  if (res.ok) return { ok: true };
  const body = await res.json().catch(() => null);
  const message = (body && body.error && body.error.message) || `podwatch answered ${res.status}`;
  const code = body && body.error && body.error.code;
  const title = res.status === 401 ? "Sign in to answer" : code === "not_shown_whole" ? "Not allowed: open podwatch" : res.status === 409 ? "Already answered" : "Not recorded";
  await say(title, message, `${notification.tag}:result`);
  return { ok: false, status: res.status, message };
}
self.handleNotificationClick = handleNotificationClick;

async function openItem(url) {
  const target = new URL(url, self.location.origin).href;
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    if (new URL(client.url).origin === self.location.origin && "focus" in client) {
      await client.focus();
      return client.navigate ? client.navigate(target) : null;
    }
  }
  return self.clients.openWindow(target);
}

self.addEventListener("notificationclick", (event) => event.waitUntil(handleNotificationClick(event.notification, event.action)));

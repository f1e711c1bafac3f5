// One notification's attempt (Web Push or mail), for the notification jobs (notification-jobs.ts):
// only what is still open, still the person's to answer and still wanted is sent; quiet hours
// postpone it. A push service's 404/410 removes the device. Throws on a failure worth a retry.
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import type { PushPayload } from "../wire/notifications";
import { itemTag, itemUrl, openPayload } from "./notification-content";
import { overdueAt, type OpenRowPayload } from "./notification-consumer";
import { isApprover } from "../domain/state/rules";
import { postPush } from "./post-push";
import { SSRF_CODE } from "../shared/ssrf";
import { levelAllows, readLevels, readSettings } from "./preferences";
import { quietUntil } from "./quiet-hours";
import type { VapidKeys } from "./vapid-keys";

export type NotificationRow = {
  id: number;
  key: string;
  channel: string;
  target: string;
  userId: string;
  podId: string;
  itemId: string;
  kind: string;
  payload: string;
  attempts: number;
};
/** Final (sent, skipped, failed for good) or postponed to `notBefore` (quiet hours: no attempt counted). */
export type NotificationOutcome = { outcome: "sent" | "skipped" | "failed" } | { notBefore: Date };

export type SendContext = {
  store: TapeStore;
  config: Pick<Config, "smtp" | "publicUrl" | "pushDeadlineMs">;
  vapid: VapidKeys;
  /** Test only: push services on loopback, over http too. */
  pushInsecureLoopback: boolean;
};

export async function sendNotification(
  c: SendContext,
  row: NotificationRow,
  signal: AbortSignal,
): Promise<NotificationOutcome> {
  if (row.kind === "withdraw")
    return push(c, row, { type: "withdraw", tag: itemTag(row.podId, row.itemId) }, signal);
  const state = await c.store.readState(row.podId);
  const item = state?.inbox[row.itemId];
  // Only what is still open (a reminder: still overdue from that deadline), still theirs to answer and
  // still wanted is sent (quiet hours may have held it).
  const was = JSON.parse(row.payload) as OpenRowPayload;
  if (!state || !item || item.at !== was.at || (was.overdue !== undefined && overdueAt(item) !== was.overdue))
    return { outcome: "skipped" };
  const user = await c.store.prisma.user.findUnique({ where: { id: row.userId }, select: { email: true } });
  if (!user || !isApprover(state, user.email)) return { outcome: "skipped" };
  const [levels, settings] = await Promise.all([
    readLevels(c.store, row.userId),
    readSettings(c.store, row.userId),
  ]);
  const reminder = was.overdue !== undefined;
  if (!levelAllows(levels.get(row.podId) ?? "all", reminder ? "reminder" : item.kind))
    return { outcome: "skipped" };
  const quiet = quietUntil(settings.quietHours, new Date());
  if (quiet) return { notBefore: quiet };
  const pod = await c.store.prisma.pod.findUnique({ where: { id: row.podId }, select: { name: true } });
  const payload = openPayload(row.podId, pod?.name ?? row.podId, state, item, new Date(), reminder);
  if (row.channel === "email")
    return settings.email ? mail(c.config, user.email, payload) : { outcome: "skipped" };
  return push(c, row, payload, signal);
}

async function push(
  c: SendContext,
  row: NotificationRow,
  payload: PushPayload,
  signal: AbortSignal,
): Promise<NotificationOutcome> {
  const sub = await c.store.prisma.pushSubscription.findUnique({ where: { id: row.target } });
  if (!sub) return { outcome: "skipped" };
  // The library encrypts (RFC 8291) and signs (VAPID); the request itself is ours (SSRF-guarded).
  // Loaded by the first push, not at start: most servers never send one (start-server.ts keeps idle memory low).
  const { default: webpush } = await import("web-push");
  const request = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: c.vapid,
      TTL: payload.type === "open" ? 24 * 3600 : 3600,
      urgency: payload.type === "open" ? "high" : "normal",
    },
  );
  let status: number;
  try {
    status = await postPush(
      request.endpoint,
      request.headers as Record<string, string>,
      request.body,
      c.pushInsecureLoopback,
      { signal, deadlineMs: c.config.pushDeadlineMs },
    );
  } catch (e) {
    // An endpoint that resolves inward will not turn public by waiting: no retries.
    if ((e as NodeJS.ErrnoException).code !== SSRF_CODE) throw e;
    console.error(`podwatch: push notification ${row.id} not sent: ${(e as Error).message}`);
    return { outcome: "failed" };
  }
  if (status === 404 || status === 410) {
    // The browser unsubscribed or the subscription expired: the device is gone.
    await c.store.prisma.pushSubscription.deleteMany({ where: { id: sub.id } });
    return { outcome: "failed" };
  }
  if (status < 200 || status >= 300) throw new Error(`the push service answered ${status}`);
  await c.store.prisma.pushSubscription.updateMany({
    where: { id: sub.id },
    data: { lastSuccessAt: new Date().toISOString() },
  });
  return { outcome: "sent" };
}

async function mail(
  config: SendContext["config"],
  to: string,
  p: Extract<PushPayload, { type: "open" }>,
): Promise<NotificationOutcome> {
  if (!config.smtp) return { outcome: "skipped" };
  // Each phase bounded, so a stalled mail server holds its slot no longer than a push would.
  const { createTransport } = await import("nodemailer"); // loaded by the first mail, not at start
  const transport = createTransport({
    url: config.smtp.url,
    connectionTimeout: config.pushDeadlineMs,
    greetingTimeout: config.pushDeadlineMs,
    socketTimeout: config.pushDeadlineMs,
  });
  try {
    const link = `${config.publicUrl}${itemUrl(p.data.podId)}`;
    const text = `${p.title}\n\n${p.body}\n\nOpen it: ${link}\n\nChoose what reaches you: ${config.publicUrl}/notifications\n`;
    await transport.sendMail({ from: config.smtp.from, to, subject: `podwatch: ${p.title}`, text });
  } finally {
    transport.close();
  }
  return { outcome: "sent" };
}

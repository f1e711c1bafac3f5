// Sends what the notification consumer queued: claims due rows with a lease,
// sends each (Web Push or mail), records the outcome, retries failures with a
// doubling backoff, and removes a device its push service says is gone (404/410).
import webpush from "web-push";
import { createTransport } from "nodemailer";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import type { PushPayload } from "../wire/notifications";
import { itemTag, itemUrl, openPayload } from "./notification-content";
import { mayAnswer } from "./notification-consumer";
import { postPush } from "./post-push";
import { SSRF_CODE } from "./push-endpoint";
import { levelAllows, readLevels, readSettings } from "./preferences";
import { quietUntil } from "./quiet-hours";
import type { VapidKeys } from "./vapid-keys";

const MAX_ATTEMPTS = 6;
const LEASE_MS = 60_000;
/** Sent and given-up rows are kept this long (their keys stop a batch taken again from sending twice), then removed. */
const KEEP_MS = 7 * 24 * 3_600_000;

type Delivery = { id: number; key: string; channel: string; target: string; userId: string; podId: string; itemId: string; kind: string; payload: string; attempts: number };
type Outcome = { outcome: "sent" | "skipped" | "failed" } | { retryAt: Date } | { notBefore: Date };

export class NotificationSender {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;

  constructor(
    private readonly store: TapeStore,
    private readonly config: Pick<Config, "smtp" | "publicUrl" | "notifyRetryMs" | "pushInsecureLoopback">,
    private readonly vapid: VapidKeys,
  ) {}

  start(pollMs = Math.min(5_000, this.config.notifyRetryMs)) {
    this.stopped = false;
    this.timer = setInterval(() => void this.kick(), pollMs);
    this.timer.unref();
    void this.kick();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** New work (or time passed): run now, or once more after the current round. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run()
      .catch((e) => console.error("podwatch: notification sender failed; retrying", e))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  private async run() {
    for (;;) {
      const rows = await this.claim(20);
      for (const row of rows) await this.settle(row, await this.deliver(row).catch((e) => this.failure(row, e)));
      if (rows.length < 20 || this.stopped) break;
    }
    await this.store.prisma.notificationDelivery.deleteMany({ where: { outcome: { not: null }, doneAt: { lt: new Date(Date.now() - KEEP_MS).toISOString() } } });
  }

  /** Oldest due rows first; each is taken only if its lease is free, so two senders never take one row. */
  private async claim(limit: number): Promise<Delivery[]> {
    const now = new Date().toISOString();
    const due = await this.store.prisma.notificationDelivery.findMany({
      where: { outcome: null, notBefore: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
      orderBy: { id: "asc" },
      take: limit,
    });
    const until = new Date(Date.now() + LEASE_MS).toISOString();
    const claimed: Delivery[] = [];
    for (const d of due) {
      const { count } = await this.store.prisma.notificationDelivery.updateMany({ where: { id: d.id, outcome: null, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] }, data: { claimedUntil: until } });
      if (count) claimed.push(d);
    }
    return claimed;
  }

  private async deliver(row: Delivery): Promise<Outcome> {
    if (row.kind === "withdraw") return this.push(row, { type: "withdraw", tag: itemTag(row.podId, row.itemId) });
    const state = await this.store.readState(row.podId);
    const item = state?.inbox[row.itemId];
    // Only what is still open, still theirs to answer and still wanted is sent (quiet hours may have held it).
    if (!state || !item || item.at !== (JSON.parse(row.payload) as { at: string }).at) return { outcome: "skipped" };
    const user = await this.store.prisma.user.findUnique({ where: { id: row.userId }, select: { email: true } });
    if (!user || !mayAnswer(state, user.email)) return { outcome: "skipped" };
    const [levels, settings] = await Promise.all([readLevels(this.store, row.userId), readSettings(this.store, row.userId)]);
    if (!levelAllows(levels.get(row.podId) ?? "all", item.kind)) return { outcome: "skipped" };
    const quiet = quietUntil(settings.quietHours, new Date());
    if (quiet) return { notBefore: quiet };
    const pod = await this.store.prisma.pod.findUnique({ where: { id: row.podId }, select: { name: true } });
    const payload = openPayload(row.podId, pod?.name ?? row.podId, state, item, new Date());
    if (row.channel === "email") return settings.email ? this.mail(user.email, payload) : { outcome: "skipped" };
    return this.push(row, payload);
  }

  private async push(row: Delivery, payload: PushPayload): Promise<Outcome> {
    const sub = await this.store.prisma.pushSubscription.findUnique({ where: { id: row.target } });
    if (!sub) return { outcome: "skipped" };
    // The library encrypts (RFC 8291) and signs (VAPID); the request itself is ours (SSRF-guarded).
    const request = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
      vapidDetails: this.vapid,
      TTL: payload.type === "open" ? 24 * 3600 : 3600,
      urgency: payload.type === "open" ? "high" : "normal",
    });
    let status: number;
    try {
      status = await postPush(request.endpoint, request.headers as Record<string, string>, request.body, this.config.pushInsecureLoopback);
    } catch (e) {
      // An endpoint that resolves inward will not turn public by waiting: no retries.
      if ((e as NodeJS.ErrnoException).code !== SSRF_CODE) throw e;
      console.error(`podwatch: push notification ${row.id} not sent: ${(e as Error).message}`);
      return { outcome: "failed" };
    }
    if (status === 404 || status === 410) {
      // The browser unsubscribed or the subscription expired: the device is gone.
      await this.store.prisma.pushSubscription.deleteMany({ where: { id: sub.id } });
      return { outcome: "failed" };
    }
    if (status < 200 || status >= 300) throw new Error(`the push service answered ${status}`);
    await this.store.prisma.pushSubscription.updateMany({ where: { id: sub.id }, data: { lastSuccessAt: new Date().toISOString() } });
    return { outcome: "sent" };
  }

  private async mail(to: string, p: Extract<PushPayload, { type: "open" }>): Promise<Outcome> {
    if (!this.config.smtp) return { outcome: "skipped" };
    const transport = createTransport(this.config.smtp.url);
    try {
      const link = `${this.config.publicUrl}${itemUrl(p.data.podId)}`;
      await transport.sendMail({ from: this.config.smtp.from, to, subject: `podwatch: ${p.title}`, text: `${p.title}\n\n${p.body}\n\nOpen it: ${link}\n\nChoose what reaches you: ${this.config.publicUrl}/notifications\n` });
    } finally {
      transport.close();
    }
    return { outcome: "sent" };
  }

  private failure(row: Delivery, e: unknown): Outcome {
    const attempts = row.attempts + 1;
    console.error(`podwatch: ${row.channel} notification ${row.id} failed (attempt ${attempts} of ${MAX_ATTEMPTS}): ${(e as Error).message}`);
    row.attempts = attempts;
    return attempts >= MAX_ATTEMPTS ? { outcome: "failed" } : { retryAt: new Date(Date.now() + this.config.notifyRetryMs * 2 ** (attempts - 1)) };
  }

  private async settle(row: Delivery, o: Outcome) {
    const data =
      "outcome" in o ? { outcome: o.outcome, doneAt: new Date().toISOString(), claimedUntil: null, attempts: row.attempts + (o.outcome === "sent" ? 1 : 0) }
      : "retryAt" in o ? { attempts: row.attempts, notBefore: o.retryAt.toISOString(), claimedUntil: null }
      : { notBefore: o.notBefore.toISOString(), claimedUntil: null };
    await this.store.prisma.notificationDelivery.update({ where: { id: row.id }, data });
  }
}

// Sends what the notification consumer queued: claims due rows with a lease,
// sends each (Web Push or mail), records the outcome, retries failures with a
// doubling backoff, and removes a device its push service says is gone (404/410).
// Up to SEND_CONCURRENCY rows are under way at once, each claimed on its own and
// bounded by a hard deadline, so one slow push service holds one slot, never the
// others; stop() aborts what is under way (the rows are sent after a restart).
import webpush from "web-push";
import { createTransport } from "nodemailer";
import type { Config } from "../config";
import type { TapeStore } from "../db/tape-store";
import type { PushPayload } from "../wire/notifications";
import { itemTag, itemUrl, openPayload } from "./notification-content";
import { overdueAt, type OpenRowPayload } from "./notification-consumer";
import { isApprover } from "../domain/state/rules";
import { PUSH_DEADLINE_MS, postPush } from "./post-push";
import { SSRF_CODE } from "../shared/ssrf";
import { levelAllows, readLevels, readSettings } from "./preferences";
import { quietUntil } from "./quiet-hours";
import type { VapidKeys } from "./vapid-keys";

const MAX_ATTEMPTS = 6;
/** How many deliveries are under way at once (one slow host takes one slot). */
export const SEND_CONCURRENCY = 8;
/** A row's lease: well past one delivery's deadline, so no other sender takes a row still being sent. */
const LEASE_MS = 60_000;
/** One delivery's hard limit (reading the pod, the request, mail): past it the attempt counts as failed. */
const DELIVERY_DEADLINE_MS = PUSH_DEADLINE_MS + 5_000;
/** Sent and given-up rows are kept this long (their keys stop a batch taken again from sending twice), then removed. */
const KEEP_MS = 7 * 24 * 3_600_000;

type Delivery = { id: number; key: string; channel: string; target: string; userId: string; podId: string; itemId: string; kind: string; payload: string; attempts: number };
type Outcome = { outcome: "sent" | "skipped" | "failed" } | { retryAt: Date } | { notBefore: Date };

export class NotificationSender {
  private pumping: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly underWay = new Set<Promise<void>>();
  private abort = new AbortController();
  private cleaned = 0;

  constructor(
    private readonly store: TapeStore,
    private readonly config: Pick<Config, "smtp" | "publicUrl" | "notifyRetryMs" | "pushInsecureLoopback">,
    private readonly vapid: VapidKeys,
  ) {}

  start(pollMs = Math.min(5_000, this.config.notifyRetryMs)) {
    this.stopped = false;
    this.abort = new AbortController();
    this.timer = setInterval(() => void this.kick(), pollMs);
    this.timer.unref();
    void this.kick();
  }

  /** Stops claiming, aborts pushes under way (their rows are released for a later start) and waits at most one deadline. */
  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.abort.abort();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((r) => (timer = setTimeout(r, DELIVERY_DEADLINE_MS)));
    await Promise.race([Promise.allSettled([this.pumping, ...this.underWay]), limit]);
    clearTimeout(timer);
  }

  /** New work (or time passed, or a slot freed): claim more now, or once more after the current claim. */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.pump()
      .catch((e) => console.error("podwatch: notification sender failed; retrying", e))
      .finally(() => {
        this.pumping = null;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.pumping;
  }

  /** Fills the free slots with due rows; each row, once settled, frees its slot and claims again. */
  private async pump() {
    for (;;) {
      const free = SEND_CONCURRENCY - this.underWay.size;
      if (this.stopped || free <= 0) return;
      const rows = await this.claim(free);
      for (const row of rows) {
        const task: Promise<void> = this.handle(row).finally(() => {
          this.underWay.delete(task);
          void this.kick();
        });
        this.underWay.add(task);
      }
      if (rows.length < free) break;
    }
    if (Date.now() - this.cleaned < 60_000) return;
    this.cleaned = Date.now();
    await this.store.prisma.notificationDelivery.deleteMany({ where: { outcome: { not: null }, doneAt: { lt: new Date(Date.now() - KEEP_MS).toISOString() } } });
  }

  private async handle(row: Delivery) {
    try {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not done within ${DELIVERY_DEADLINE_MS / 1000} s`)), DELIVERY_DEADLINE_MS)));
      const outcome = await Promise.race([this.deliver(row), late]).then(
        (o) => o,
        (e: unknown) => (this.stopped ? null : this.failure(row, e)),
      );
      clearTimeout(timer);
      // Stopped mid-attempt: not the row's fault; released for the next start (or another node).
      if (!outcome) await this.store.prisma.notificationDelivery.updateMany({ where: { id: row.id, outcome: null }, data: { claimedUntil: null } });
      else await this.settle(row, outcome);
    } catch (e) {
      console.error(`podwatch: notification ${row.id} not recorded; it is tried again after its lease`, e);
    }
  }

  /** Oldest due rows first; each is taken only if its lease is free, so two senders never take one row. */
  private async claim(limit: number): Promise<Delivery[]> {
    const now = new Date().toISOString();
    // PostgreSQL (several nodes): one statement; SKIP LOCKED passes over rows another node is claiming right now.
    if (this.store.kind === "postgres") {
      const until = new Date(Date.now() + LEASE_MS).toISOString();
      const rows = await this.store.prisma.$queryRaw<Delivery[]>`UPDATE notification_delivery SET claimed_until = ${until} WHERE id IN (
          SELECT id FROM notification_delivery WHERE outcome IS NULL AND not_before <= ${now} AND (claimed_until IS NULL OR claimed_until < ${now})
          ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING id, key, channel, target, user_id AS "userId", pod_id AS "podId", item_id AS "itemId", kind, payload, attempts`;
      return rows.sort((x, y) => x.id - y.id); // RETURNING does not promise an order
    }
    // SQLite (one node, one writer): row by row, each lease taken only if still free.
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
    // Only what is still open (a reminder: still overdue from that deadline), still theirs to answer and
    // still wanted is sent (quiet hours may have held it).
    const was = JSON.parse(row.payload) as OpenRowPayload;
    if (!state || !item || item.at !== was.at || (was.overdue !== undefined && overdueAt(item) !== was.overdue)) return { outcome: "skipped" };
    const user = await this.store.prisma.user.findUnique({ where: { id: row.userId }, select: { email: true } });
    if (!user || !isApprover(state, user.email)) return { outcome: "skipped" };
    const [levels, settings] = await Promise.all([readLevels(this.store, row.userId), readSettings(this.store, row.userId)]);
    const reminder = was.overdue !== undefined;
    if (!levelAllows(levels.get(row.podId) ?? "all", reminder ? "reminder" : item.kind)) return { outcome: "skipped" };
    const quiet = quietUntil(settings.quietHours, new Date());
    if (quiet) return { notBefore: quiet };
    const pod = await this.store.prisma.pod.findUnique({ where: { id: row.podId }, select: { name: true } });
    const payload = openPayload(row.podId, pod?.name ?? row.podId, state, item, new Date(), reminder);
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
      status = await postPush(request.endpoint, request.headers as Record<string, string>, request.body, this.config.pushInsecureLoopback, { signal: this.abort.signal });
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
    // Each phase bounded, so a stalled mail server holds its slot no longer than a push would.
    const transport = createTransport({ url: this.config.smtp.url, connectionTimeout: PUSH_DEADLINE_MS, greetingTimeout: PUSH_DEADLINE_MS, socketTimeout: PUSH_DEADLINE_MS });
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

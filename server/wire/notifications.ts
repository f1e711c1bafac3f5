// Notifications: Web Push devices, what reaches a person from each pod, quiet
// hours, and acting on an inbox item from a notification.
import { z } from "zod";

/** What reaches a person from one pod. "decisions" = escalations, work and deliveries to approve, a blocked plan, a held tool call; not reminders, staleness or notices. */
export const NOTIFY_LEVELS = ["all", "decisions", "none"] as const;
export type NotifyLevel = (typeof NOTIFY_LEVELS)[number];
export const ZNotifyLevel = z.enum(NOTIFY_LEVELS);

const base64url = z
  .string()
  .min(16)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/, "must be base64url");

/** A browser's PushSubscription, as `subscription.toJSON()` gives it. */
export const ZPushSubscriptionRequest = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  keys: z.object({ p256dh: base64url, auth: base64url }),
  label: z.string().trim().max(100).optional(),
});
export type TPushSubscriptionRequest = z.infer<typeof ZPushSubscriptionRequest>;

export const ZPushDevice = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastSuccessAt: z.string().nullable(),
  endpoint: z.string(),
});
export type PushDevice = z.infer<typeof ZPushDevice>;
/** GET /api/v1/me/push: the server's VAPID public key (for `pushManager.subscribe`) and this person's devices. */
export const ZPushDevicesResponse = z.object({ publicKey: z.string(), devices: z.array(ZPushDevice) });
export type PushDevicesResponse = z.infer<typeof ZPushDevicesResponse>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "use HH:MM, 24-hour");
const timeZone = z
  .string()
  .min(1)
  .max(100)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "not a time zone name this server knows: use one such as Europe/Paris, America/New_York or UTC");

export const ZQuietHours = z
  .object({ start: hhmm, end: hhmm, timeZone })
  .refine((q) => q.start !== q.end, "start and end must differ");
export type QuietHours = z.infer<typeof ZQuietHours>;

/** PUT /api/v1/me/preferences: any part may be left out; `pods` lists only the pods to change. */
export const ZPreferencesRequest = z.object({
  quietHours: ZQuietHours.nullable().optional(),
  email: z.boolean().optional(),
  pods: z
    .array(z.object({ podId: z.string().min(1).max(200), level: ZNotifyLevel }))
    .max(500)
    .optional(),
});
export type TPreferencesRequest = z.infer<typeof ZPreferencesRequest>;

export const ZPodPreference = z.object({
  podId: z.string(),
  podName: z.string(),
  level: ZNotifyLevel,
  mayAnswer: z.boolean(),
});
export type PodPreference = z.infer<typeof ZPodPreference>;
export const ZPreferencesResponse = z.object({
  quietHours: ZQuietHours.nullable(),
  email: z.boolean(),
  emailAvailable: z.boolean(),
  pods: z.array(ZPodPreference),
});
export type PreferencesResponse = z.infer<typeof ZPreferencesResponse>;

/**
 * POST /api/v1/me/inbox/act: what a notification's action button does. `reason`: a tool
 * approval's deny (or allow) may say why; the agent is told it.
 */
export const ZActRequest = z.object({
  podId: z.string().min(1).max(200),
  itemId: z.string().min(1).max(400),
  action: z.string().min(1).max(5000),
  reason: z.string().trim().max(2000).optional(),
});
export type TActRequest = z.infer<typeof ZActRequest>;
export const ZActResponse = z.object({ ok: z.literal(true), seqs: z.array(z.number().int()) });
export type ActResponse = z.infer<typeof ZActResponse>;

/** An action button on a notification: `action` is what the act route is sent, but `open`, which opens the item in podwatch. */
export type PushAction = { action: string; title: string };
/** What the service worker (public/sw.js) receives. */
export type PushPayload =
  | {
      type: "open";
      title: string;
      body: string;
      tag: string;
      at: string;
      data: { podId: string; itemId: string; url: string };
      actions: PushAction[];
      reminder?: true;
    }
  | { type: "withdraw"; tag: string };

// A person's notifications: their push devices, what reaches them from each pod, and acting on an
// inbox item from a notification's button. Each belongs to a signed-in person (their session, never
// a token). Declared once: the REST routes, the control room's server actions and the reference
// come from this table.
import { z } from "zod";
import { AppError } from "../domain/errors";
import { defineOperation } from "../operations/operation";
import * as wire from "../wire/notifications";
import { actFromNotification } from "./act-from-notification";
import { readPreferences, savePreferences } from "./preferences";
import { addDevice, listDevices, removeDevice } from "./push-devices";
import { requireSameOriginFetch } from "./same-origin-fetch";
import type { AppContext } from "../app-context";

const tag = "Notifications";
const emailAvailable = (app: AppContext) => app.config.smtp !== null;
/** How a refused answer from a notification's button is told over HTTP. */
const ACT_STATUS: Record<string, number> = {
  stale: 409,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
};

export const notifyOperations = {
  listPushDevices: defineOperation({
    name: "listPushDevices",
    summary:
      "The server's VAPID public key (for `pushManager.subscribe`) and this person's push devices " +
      "(`id`, `label`, `createdAt`, `lastSuccessAt`, `endpoint`).",
    tag,
    input: z.object({}),
    output: wire.ZPushDevicesResponse,
    guard: "person",
    http: { method: "GET", path: "/api/v1/me/push", status: 200 },
    run: async ({ app, identity }) => ({
      publicKey: app.config.vapid.publicKey ?? "",
      devices: await listDevices(app.store, identity),
    }),
  }),
  addPushDevice: defineOperation({
    name: "addPushDevice",
    summary:
      "Registers this browser's push subscription (`subscription.toJSON()`), named after its user agent" +
      " unless labelled; the same endpoint again replaces it (new keys, label). One registered to " +
      "another person is refused (409 `push_endpoint_taken`), and so is a 21st device (409 " +
      "`too_many_devices`). The endpoint must be `https` on a public host: one that is or resolves to " +
      "an internal address is a 400, and it is checked again at every push.",
    tag,
    input: wire.ZPushSubscriptionRequest,
    output: wire.ZPushDevice,
    guard: "person",
    http: { method: "POST", path: "/api/v1/me/push/devices", status: 201 },
    action: true,
    run: ({ app, identity, request }, a) =>
      addDevice(
        app.store,
        identity,
        a,
        request.headers.get("user-agent") ?? undefined,
        app.knobs.pushInsecureLoopback,
      ),
  }),
  removePushDevice: defineOperation({
    name: "removePushDevice",
    summary: "Removes one of this person's devices (another person's is a 404).",
    tag,
    input: z.object({ deviceId: z.string().min(1).max(100) }),
    output: z.object({ ok: z.literal(true) }),
    guard: "person",
    http: { method: "DELETE", path: "/api/v1/me/push/devices/{deviceId}", status: 200 },
    action: true,
    run: async ({ app, identity }, a) => {
      await removeDevice(app.store, identity, a.deviceId);
      return { ok: true as const };
    },
  }),
  readPreferences: defineOperation({
    name: "readPreferences",
    summary:
      "What reaches this person from each pod they see (`level`: `all`, `decisions`, `none`), their " +
      "quiet hours, and whether new items are also mailed (`emailAvailable`: whether this server " +
      "mails).",
    tag,
    input: z.object({}),
    output: wire.ZPreferencesResponse,
    guard: "person",
    http: { method: "GET", path: "/api/v1/me/preferences", status: 200 },
    run: ({ app, identity }) => readPreferences(app.store, identity, emailAvailable(app)),
  }),
  saveNotificationPreferences: defineOperation({
    name: "saveNotificationPreferences",
    summary:
      "Changes what it names (`pods` lists only the pods to change; times `HH:MM` in an IANA time " +
      "zone); a pod the person cannot see is a 404 and nothing is saved. Answers the preferences as " +
      "they now are.",
    tag,
    input: wire.ZPreferencesRequest,
    output: wire.ZPreferencesResponse,
    guard: "person",
    http: { method: "PUT", path: "/api/v1/me/preferences", status: 200 },
    action: true,
    run: ({ app, identity }, a) => savePreferences(app.store, identity, a, emailAvailable(app)),
  }),
  readNotifications: defineOperation({
    name: "readNotifications",
    summary:
      "The Notifications page's data in one call: the push key, this person's devices and preferences.",
    tag,
    input: z.object({}),
    output: wire.ZPushDevicesResponse.extend({ preferences: wire.ZPreferencesResponse }),
    guard: "person",
    action: true,
    run: async ({ app, identity }) => ({
      publicKey: app.config.vapid.publicKey ?? "",
      devices: await listDevices(app.store, identity),
      preferences: await readPreferences(app.store, identity, emailAvailable(app)),
    }),
  }),
  actOnNotification: defineOperation({
    name: "actOnNotification",
    summary:
      "What a notification's button does (`approve`, `accept`, `reject`, `option:0`, `option:1`; for a " +
      "held tool call `allow`, only for a call its notification showed whole, else 409 " +
      "`not_shown_whole`, or `deny`, with an optional `reason` the agent is told), as this person, " +
      "through the inbox's own actions; 409 `stale` if the item was already answered. Needs a same-" +
      "origin JSON request with `X-Podwatch-Request: notification` (and `Sec-Fetch-Site: same-origin` " +
      "where the browser sends it), else 403 `bad_origin`.",
    tag,
    input: wire.ZActRequest,
    output: wire.ZActResponse,
    guard: "person",
    http: { method: "POST", path: "/api/v1/me/inbox/act", status: 200 },
    run: async ({ app, identity, request }, a) => {
      requireSameOriginFetch(request.headers);
      const r = await actFromNotification(app, identity, a);
      if (!r.ok)
        throw new AppError(Object.hasOwn(ACT_STATUS, r.code) ? ACT_STATUS[r.code]! : 409, r.code, r.error);
      return r;
    },
  }),
};

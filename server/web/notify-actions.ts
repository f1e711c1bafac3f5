// A person's notifications from the control room: the twins of the /api/v1/me/push
// and /api/v1/me/preferences routes, calling the same use-cases.
import { z } from "zod";
import { requireAuthenticated } from "../domain/access/policy";
import { addDevice, listDevices, removeDevice } from "../notify/push-devices";
import { readPreferences, savePreferences } from "../notify/preferences";
import { ZPreferencesRequest, ZPushSubscriptionRequest } from "../wire/notifications";
import { defineSiteCall } from "./run-site-action";

export const readNotificationsCall = defineSiteCall({
  schema: z.object({}),
  guard: requireAuthenticated,
  run: async (app, _input, person) => ({
    publicKey: app.config.vapid.publicKey ?? "",
    devices: await listDevices(app.store, person),
    preferences: await readPreferences(app.store, person, app.config.smtp !== null),
  }),
});

export const addPushDeviceCall = (userAgent: string | undefined) =>
  defineSiteCall({
    schema: ZPushSubscriptionRequest,
    guard: requireAuthenticated,
    run: (app, input, person) =>
      addDevice(app.store, person, input, userAgent, app.knobs.pushInsecureLoopback),
  });

export const removePushDeviceCall = defineSiteCall({
  schema: z.object({ deviceId: z.string().min(1).max(100) }),
  guard: requireAuthenticated,
  run: async (app, input, person) => (
    await removeDevice(app.store, person, input.deviceId),
    { removed: true }
  ),
});

export const savePreferencesCall = defineSiteCall({
  schema: ZPreferencesRequest,
  guard: requireAuthenticated,
  run: (app, input, person) => savePreferences(app.store, person, input, app.config.smtp !== null),
});

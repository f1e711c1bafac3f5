// A person's notifications: their push devices, their preferences, and acting
// on an inbox item from a notification's button. Session cookies only (these
// belong to a person); the control room's server actions are the twins.
import type { IncomingMessage } from "node:http";
import { AppError } from "../domain/errors";
import { actFromNotification } from "../notify/act-from-notification";
import { addDevice, listDevices, removeDevice } from "../notify/push-devices";
import { person, readPreferences, savePreferences } from "../notify/preferences";
import {
  ZActRequest,
  ZPreferencesRequest,
  ZPushSubscriptionRequest,
  type ActResponse,
  type PushDevice,
  type PushDevicesResponse,
  type PreferencesResponse,
} from "../wire/notifications";
import { parseWith, readJsonBody, sendJson } from "./json";
import type { Route, RouteContext } from "./route";

/** The header the service worker sets: a plain form or a cross-site fetch cannot, so with the origin check it stops CSRF. */
export const ACT_HEADER = "x-podwatch-request";

/**
 * Beyond the API's origin check for cookie writes: a JSON body (a form cannot send one
 * without a CORS preflight we never grant), our custom header, and, where the browser
 * says so, a same-origin fetch.
 */
function requireSameOriginFetch(req: IncomingMessage) {
  const type = String(req.headers["content-type"] ?? "")
    .split(";")[0]!
    .trim()
    .toLowerCase();
  const site = req.headers["sec-fetch-site"];
  if (
    type !== "application/json" ||
    req.headers[ACT_HEADER] !== "notification" ||
    (site !== undefined && site !== "same-origin")
  ) {
    throw new AppError(
      403,
      "bad_origin",
      `acting from a notification needs a same-origin JSON request with ${ACT_HEADER}: notification`,
    );
  }
}

const emailAvailable = (c: RouteContext) => c.app.config.smtp !== null;

export const notifyRoutes: Route[] = [
  {
    method: "GET",
    path: /^\/api\/v1\/me\/push$/,
    guard: "authenticated",
    run: async ({ app, res, identity }) =>
      sendJson(res, 200, {
        publicKey: app.config.vapid.publicKey ?? "",
        devices: await listDevices(app.store, identity),
      } satisfies PushDevicesResponse),
  },
  {
    method: "POST",
    path: /^\/api\/v1\/me\/push\/devices$/,
    guard: "authenticated",
    run: async ({ app, req, res, identity }) => {
      const input = parseWith(ZPushSubscriptionRequest, await readJsonBody(req));
      sendJson(
        res,
        201,
        (await addDevice(
          app.store,
          identity,
          input,
          req.headers["user-agent"],
          app.knobs.pushInsecureLoopback,
        )) satisfies PushDevice,
      );
    },
  },
  {
    method: "DELETE",
    path: /^\/api\/v1\/me\/push\/devices\/([^/]+)$/,
    guard: "authenticated",
    run: async ({ app, res, params, identity }) => {
      await removeDevice(app.store, identity, params[0]!);
      sendJson(res, 200, { ok: true });
    },
  },
  {
    method: "GET",
    path: /^\/api\/v1\/me\/preferences$/,
    guard: "authenticated",
    run: async (c) =>
      sendJson(
        c.res,
        200,
        (await readPreferences(c.app.store, c.identity, emailAvailable(c))) satisfies PreferencesResponse,
      ),
  },
  {
    method: "PUT",
    path: /^\/api\/v1\/me\/preferences$/,
    guard: "authenticated",
    run: async (c) => {
      const input = parseWith(ZPreferencesRequest, await readJsonBody(c.req));
      sendJson(
        c.res,
        200,
        (await savePreferences(
          c.app.store,
          c.identity,
          input,
          emailAvailable(c),
        )) satisfies PreferencesResponse,
      );
    },
  },
  {
    method: "POST",
    path: /^\/api\/v1\/me\/inbox\/act$/,
    guard: "authenticated",
    run: async ({ app, req, res, identity }) => {
      person(identity);
      requireSameOriginFetch(req);
      const r = await actFromNotification(app, identity, parseWith(ZActRequest, await readJsonBody(req)));
      if (!r.ok)
        throw new AppError(
          r.code === "stale"
            ? 409
            : r.code === "forbidden"
              ? 403
              : r.code === "not_found"
                ? 404
                : r.code === "invalid_request"
                  ? 400
                  : 409,
          r.code,
          r.error,
        );
      sendJson(res, 200, r satisfies ActResponse);
    },
  },
];

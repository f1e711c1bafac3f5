// Acting from a notification's button is a cookie write the service worker (public/sw.js) makes.
// Beyond the API's origin check for cookie writes: a JSON body (a form cannot send one without a
// CORS preflight we never grant), our custom header, and, where the browser says so, a
// same-origin fetch.
import { AppError } from "../domain/errors";

/** The header the service worker sets: a plain form or a cross-site fetch cannot, so with the origin check it stops CSRF. */
export const ACT_HEADER = "x-podwatch-request";

export function requireSameOriginFetch(headers: Headers) {
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const site = headers.get("sec-fetch-site");
  if (
    type !== "application/json" ||
    headers.get(ACT_HEADER) !== "notification" ||
    (site !== null && site !== "same-origin")
  ) {
    throw new AppError(
      403,
      "bad_origin",
      `acting from a notification needs a same-origin JSON request with ${ACT_HEADER}: notification`,
    );
  }
}

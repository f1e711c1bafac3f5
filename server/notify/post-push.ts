// One push request to a push service, as web-push prepared it (encrypted body,
// VAPID headers): no redirects, the host guarded at connect time
// (./push-endpoint.ts), the answer's body dropped unread. A hard deadline covers
// the whole request (an idle timeout alone lets a service that sends one header
// line every few seconds hold it for hours), and a signal aborts it (the sender's stop).
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkPushHost, pushLookup } from "./push-endpoint";

/** The longest one push may take, connecting to the answer's status line, unless told (PODWATCH_PUSH_DEADLINE_MS). */
export const PUSH_DEADLINE_MS = 5_000;

export function postPush(
  endpoint: string,
  headers: Record<string, string>,
  body: Buffer | null,
  insecureLoopback: boolean,
  opts: { deadlineMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const deadlineMs = opts.deadlineMs ?? PUSH_DEADLINE_MS;
  return new Promise((resolve, reject) => {
    try {
      checkPushHost(endpoint, insecureLoopback);
    } catch (e) {
      return reject(e);
    }
    const url = new URL(endpoint);
    const request =
      url.protocol === "https:"
        ? httpsRequest
        : insecureLoopback && url.protocol === "http:"
          ? httpRequest
          : null;
    if (!request) return reject(new Error("a push endpoint must be an https URL"));
    if (opts.signal?.aborted) return reject(new Error("the push was stopped"));
    const req = request(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(body?.length ?? 0) },
      lookup: pushLookup(insecureLoopback),
      timeout: deadlineMs,
      agent: false,
    });
    const late = () =>
      req.destroy(new Error(`the push service did not answer within ${deadlineMs / 1000} s`));
    const deadline = setTimeout(late, deadlineMs);
    const stop = () => req.destroy(new Error("the push was stopped"));
    opts.signal?.addEventListener("abort", stop, { once: true });
    const done = () => {
      clearTimeout(deadline);
      opts.signal?.removeEventListener("abort", stop);
    };
    req.on("timeout", late);
    req.on("error", (e) => (done(), reject(e)));
    req.on("response", (res) => {
      done();
      res.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.end(body ?? undefined);
  });
}

// One push request to a push service, as web-push prepared it (encrypted body,
// VAPID headers): no redirects, a timeout, the host guarded at connect time
// (./push-endpoint.ts), the answer's body dropped unread.
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { checkLiteralHost, pushLookup } from "./push-endpoint";

const TIMEOUT_MS = 15_000;

export function postPush(endpoint: string, headers: Record<string, string>, body: Buffer | null, insecureLoopback: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    try {
      checkLiteralHost(endpoint, insecureLoopback);
    } catch (e) {
      return reject(e);
    }
    const url = new URL(endpoint);
    const request = url.protocol === "https:" ? httpsRequest : insecureLoopback && url.protocol === "http:" ? httpRequest : null;
    if (!request) return reject(new Error("a push endpoint must be an https URL"));
    const req = request(url, {
      method: "POST",
      headers: { ...headers, "content-length": String(body?.length ?? 0) },
      lookup: pushLookup(insecureLoopback),
      timeout: TIMEOUT_MS,
    });
    req.on("timeout", () => req.destroy(new Error(`the push service did not answer within ${TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.end(body ?? undefined);
  });
}

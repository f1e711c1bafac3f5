// The request target as a URL, judged once at the door: a target that is no URL
// (`GET http://[ HTTP/1.1`) made `new URL` throw inside the request listener, and
// a malformed %-escape (`/api/v1/pods/%E0%A4%A`) made every later decodeURIComponent throw.
import type { IncomingMessage } from "node:http";
import { AppError } from "../domain/errors";

export const badPath = () => new AppError(400, "bad_path", "the request path is not a valid URL path (a malformed %-escape?)");

/** The request's URL, or null when its target cannot be parsed or its path cannot be decoded. */
export function requestUrl(req: IncomingMessage): URL | null {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    decodeURIComponent(url.pathname);
    return url;
  } catch {
    return null;
  }
}

/** One path segment, decoded; a malformed escape is the caller's mistake (400), never a 500. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badPath();
  }
}

// The request target as a URL, judged once at the door: a target that is no URL
// (`GET http://[ HTTP/1.1`) made `new URL` throw inside the request listener, a
// malformed %-escape (`/api/v1/pods/%E0%A4%A`) made every later decodeURIComponent
// throw, and a NUL (`%00`) in a pod id or a search reached PostgreSQL, which refuses it.
import type { IncomingMessage } from "node:http";
import { AppError } from "../domain/errors";

export const badPath = () =>
  new AppError(
    400,
    "bad_path",
    "the request path is not a valid URL path (a malformed %-escape, or a control character?)",
  );

/** No id, name or search term of ours holds a control character. */
const CONTROL = /[\u0000-\u001f\u007f]/;

/** The request's URL, or null when its target cannot be parsed, its path cannot be decoded, or either holds a control character. */
export function requestUrl(req: IncomingMessage): URL | null {
  try {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (CONTROL.test(decodeURIComponent(url.pathname))) return null;
    for (const [key, value] of url.searchParams) if (CONTROL.test(key) || CONTROL.test(value)) return null;
    return url;
  } catch {
    return null;
  }
}

/** One path segment, decoded; a malformed escape is the caller's mistake (400), never a 500. */
export function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badPath();
  }
}

/**
 * A target that `new URL` keeps exactly as it is, with nothing to decode: one slash, then letters,
 * digits, `-`, `_`, `~` and single slashes (no `%`, `.`, `?`, `\`). The agent API's own paths are
 * all such, so the hot routes skip parsing a URL that no one reads.
 */
const PLAIN_TARGET = /^(?:\/[\w~-]+)+\/?$|^\/$/;

/** The request's target judged once: its path, and its URL made only when a route reads it (the query). */
export class RequestTarget {
  private constructor(
    readonly pathname: string,
    private readonly raw: string,
    private parsed: URL | null,
  ) {}

  get url(): URL {
    return (this.parsed ??= new URL(this.raw, "http://localhost"));
  }

  /** Null when the target is no valid URL path (what `requestUrl` refuses). */
  static of(req: IncomingMessage): RequestTarget | null {
    const raw = req.url ?? "/";
    if (PLAIN_TARGET.test(raw)) return new RequestTarget(raw, raw, null);
    const url = requestUrl(req);
    return url && new RequestTarget(url.pathname, raw, url);
  }
}

// Who is asking: an admin or agent bearer token, a share link (cookie or
// bearer), a Better Auth session cookie — or nobody. "invalid" means a
// credential was presented and is wrong; callers answer it with a generic 401.
import type { IncomingHttpHeaders } from "node:http";
import { fromNodeHeaders } from "better-auth/node";
import type { Identity } from "../domain/access/policy";
import type { AccessContext } from "./access-context";
import { AGENT_TOKEN_PREFIX, sameSecret, SHARE_TOKEN_PREFIX } from "./secrets";
import { verifyShareToken } from "./share-links";

export const SHARE_COOKIE = "pw_share";

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const i = part.indexOf("=");
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return null;
}

const SHARE_COOKIE_SET = new RegExp(`(?:^|;)\\s*${SHARE_COOKIE}=`);

/** Whether a credential was presented at all: refusing one is a failed authentication (counted per IP); presenting none is not. */
export function presentsCredential(headers: IncomingHttpHeaders): boolean {
  const cookies = headers.cookie ?? "";
  return !!headers.authorization || cookies.includes("session_token") || SHARE_COOKIE_SET.test(cookies);
}

const header = (headers: IncomingHttpHeaders | Headers, name: string) =>
  (headers instanceof Headers ? headers.get(name) : (headers[name] as string | undefined)) ?? undefined;

export async function resolveIdentity(
  ax: AccessContext,
  headers: IncomingHttpHeaders | Headers,
): Promise<Identity | "invalid"> {
  const authz = header(headers, "authorization");
  if (authz) {
    const m = /^Bearer\s+(\S+)$/i.exec(authz);
    if (!m) return "invalid";
    const secret = m[1]!;
    // Agent tokens first (the hot path, usually a cache hit); they can never equal an admin key.
    if (secret.startsWith(AGENT_TOKEN_PREFIX)) {
      const agent = await ax.tokens.verify(secret);
      if (agent) return { kind: "agent", ...agent };
    }
    for (const [label, key] of ax.adminKeys)
      if (sameSecret(secret, key)) return { kind: "admin-token", label };
    if (secret.startsWith(SHARE_TOKEN_PREFIX)) {
      const link = await verifyShareToken(ax.store, secret);
      return link ? { kind: "share", ...link } : "invalid";
    }
    return "invalid";
  }
  const cookies = header(headers, "cookie");
  if (cookies?.includes("session_token")) {
    const session = await ax.auth.api
      .getSession({ headers: headers instanceof Headers ? headers : fromNodeHeaders(headers) })
      .catch(() => null);
    if (session) {
      const user = session.user as typeof session.user & {
        isAdmin?: boolean;
        canCreatePods?: boolean;
        mustChangePassword?: boolean;
      };
      return {
        kind: "user",
        userId: user.id,
        email: user.email,
        name: user.name,
        isAdmin: user.isAdmin === true,
        canCreatePods: user.canCreatePods === true,
        mustChangePassword: user.mustChangePassword === true,
      };
    }
  }
  const share = readCookie(cookies, SHARE_COOKIE);
  if (share) {
    const link = await verifyShareToken(ax.store, share);
    if (link) return { kind: "share", ...link };
  }
  return { kind: "anonymous" };
}

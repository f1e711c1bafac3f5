// Who may do what, as a pure function of an identity and a pod's state. The
// server is the guard: every API route, socket subscription and server action
// asks this module; the UI only hides what it would refuse anyway.
import { SYSTEM_ACTOR, SYSTEM_EVENT_TYPES, type Access } from "../events/event-schemas";
import type { PodState } from "../state/pod-state";
import { AppError } from "../errors";
import { escapedName, reservedLookAlike } from "./reserved-names";

export type Identity =
  | { kind: "anonymous" }
  /** A person signed in through Better Auth; `isAdmin` = site administrator; `canCreatePods`: a site admin allowed them to create pods (absent = no). */
  | {
      kind: "user";
      userId: string;
      email: string;
      name: string;
      isAdmin: boolean;
      canCreatePods?: boolean;
      mustChangePassword?: boolean;
    }
  /** PODWATCH_ADMIN_TOKEN, or the server's own key for its demo: admin rights on the API. */
  | { kind: "admin-token"; label: string }
  /** An agent token: speaks for exactly one member of one pod. */
  | { kind: "agent"; tokenId: string; podId: string; memberId: string }
  /** A read-only share link for one pod. */
  | { kind: "share"; linkId: string; podId: string };

export type PodAccess = "none" | Access;
const RANK: Record<PodAccess, number> = { none: 0, viewer: 1, approver: 2, admin: 3 };

export const atLeast = (have: PodAccess, need: Access) => RANK[have] >= RANK[need];
/** Whether this access sees an inbox item: a notice (`audience: "admins"`) is for the pod's admins only — in the inbox, in /state and on their devices. */
export const maySeeItem = (access: PodAccess, item: { audience?: "admins" }) =>
  item.audience !== "admins" || atLeast(access, "admin");
export const isSiteAdmin = (id: Identity) => id.kind === "admin-token" || (id.kind === "user" && id.isAdmin);

/** A person's or a credential's access to one pod. Agents and share links watch; people get what their membership says. */
export function podAccess(id: Identity, podId: string, state: PodState | null): PodAccess {
  if (isSiteAdmin(id)) return "admin";
  if (id.kind === "agent" || id.kind === "share") return id.podId === podId ? "viewer" : "none";
  if (id.kind === "user" && state) {
    const m = state.members[id.email];
    return m?.kind === "human" ? (m.access ?? "viewer") : "none";
  }
  return "none";
}

export type Verdict = { ok: true } | { ok: false; status: 401 | 403 | 422; code: string; message: string };
const allow: Verdict = { ok: true };
const unauthenticated: Verdict = {
  ok: false,
  status: 401,
  code: "unauthenticated",
  message: "authentication required",
};
const forbidden = (message: string, code = "forbidden"): Verdict => ({
  ok: false,
  status: 403,
  code,
  message,
});

export function requirePodAccess(id: Identity, podId: string, state: PodState | null, need: Access): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  return atLeast(podAccess(id, podId, state), need)
    ? allow
    : forbidden(`this needs ${need} access to the pod`);
}

export function requireSiteAdmin(id: Identity): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  return isSiteAdmin(id) ? allow : forbidden("this needs a site administrator");
}

/** Site admins, and people a site admin allowed. Agents, share links and anonymous callers never. */
export const mayCreatePods = (id: Identity) =>
  isSiteAdmin(id) || (id.kind === "user" && id.canCreatePods === true);

export function requireCreatePods(id: Identity): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  return mayCreatePods(id)
    ? allow
    : forbidden("creating pods needs a site administrator, or their permission");
}

export function requireAuthenticated(id: Identity): Verdict {
  return id.kind === "anonymous" ? unauthenticated : allow;
}

/** A door an agent reports through (Claude Code's hooks, OTLP): its token names the pod and the member. */
export function requireAgent(id: Identity): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  return id.kind === "agent" ? allow : forbidden("this needs an agent token of a pod");
}

/** What belongs to a person (their devices, preferences, password): their session, never a token. */
export function requirePerson(id: Identity): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  return id.kind === "user" ? allow : forbidden("this belongs to a signed-in person; a token has none");
}

/** The person behind a call the "person" guard let through (a bug otherwise, refused all the same). */
export function personOf(id: Identity): Extract<Identity, { kind: "user" }> {
  if (id.kind !== "user") throw new AppError(403, "forbidden", "this belongs to a signed-in person");
  return id;
}

/**
 * Appending with a credential (the agent API, the hook route, OTLP): an agent
 * token speaks only as its own member ("who said what" is proven by the token,
 * never by a client-supplied name); an admin token may speak as anyone
 * (automation). People act through their session in the control room, as
 * themselves. One of the write path's rules (./admit-append.ts).
 */
export function requireAppend(id: Identity, podId: string, actors: string[]): Verdict {
  if (id.kind === "anonymous") return unauthenticated;
  if (id.kind === "admin-token") return allow;
  if (id.kind !== "agent")
    return forbidden("the agent API takes an agent token; people act from the control room");
  if (id.podId !== podId) return forbidden("this token belongs to another pod");
  const other = actors.find((a) => a !== id.memberId);
  return other === undefined
    ? allow
    : forbidden(`this token speaks for ${id.memberId}, not ${other}`, "actor_mismatch");
}

/**
 * The server's own voice on the tape (SYSTEM_ACTOR: deadline outcomes, staleness, notices) is
 * never a client's, whoever asks — an agent token, the admin token, a person's action: only
 * server-side code appends as it (a SystemIdentity, ./admit-append.ts). Nor may a client add a
 * member of that name, or one that reads as it (a look-alike id or display name: ./reserved-names.ts).
 * Checked by the write path before an append (admitAppend), not by the reducers: a tape an older
 * version accepted with such a member must still replay.
 */
export function refuseSystemVoice(
  events: readonly { type: string; actor: string; body?: unknown }[],
): Verdict {
  // Each name folded once: a batch of 1,000 events mostly has one actor, and folding is the cost.
  const judged = new Map<string, boolean>();
  const readsReserved = (actor: string) => {
    let reserved = judged.get(actor);
    if (reserved === undefined) judged.set(actor, (reserved = reservedLookAlike(actor) !== null));
    return reserved;
  };
  const voice = events.find((x) => readsReserved(x.actor));
  if (voice) {
    const said =
      voice.actor === SYSTEM_ACTOR
        ? SYSTEM_ACTOR
        : `${escapedName(voice.actor)} reads as ${SYSTEM_ACTOR}, which`;
    return forbidden(`${said} is the server itself on the tape; no client may speak as it`, "system_actor");
  }
  const e = events.find((x) => (SYSTEM_EVENT_TYPES as readonly string[]).includes(x.type));
  if (e) return forbidden(`${e.type} is appended by the server itself, never by a client`, "system_actor");
  for (const x of events) {
    if (x.type !== "member.joined") continue;
    const body = (x.body ?? {}) as { memberId?: unknown; displayName?: unknown };
    for (const [field, what] of [
      ["memberId", "member id"],
      ["displayName", "display name"],
    ] as const) {
      const value = body[field];
      const reserved = typeof value === "string" ? reservedLookAlike(value) : null;
      if (reserved === null || typeof value !== "string") continue;
      const said =
        value === reserved ? reserved : `the ${what} ${escapedName(value)} reads as ${reserved}, which`;
      return reservedMember(`${said} is the server itself on the tape; choose another ${what}`);
    }
  }
  return allow;
}

const reservedMember = (message: string): Verdict => ({
  ok: false,
  status: 422,
  code: "reserved_member",
  message,
});

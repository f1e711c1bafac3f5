import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../app-context";
import type { Identity } from "../domain/access/policy";
import type { PodState } from "../domain/state/pod-state";
import type { Guard } from "../operations/operation";

/** `podState`: the state the guard read for a `{ pod }` route (null for the other guards). */
export type RouteContext = {
  app: AppContext;
  req: IncomingMessage;
  res: ServerResponse;
  params: string[];
  url: URL;
  identity: Identity;
  podState: PodState | null;
};

/** Who may call a route: the same guards as an operation's (server/operations/operation.ts). */
export type { Guard };
/** What a route's `failed` learns: the caller, when it was resolved before the failure (else anonymous). */
export type FailedContext = {
  app: AppContext;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  identity: Identity;
};
/**
 * `failed`: how the route answers when anything after it was matched throws (authentication, rate
 * limit, guard, its own run); it rethrows what it leaves to the usual error answer. Without it,
 * the usual error answer.
 */
export type Route = {
  method: string;
  path: RegExp;
  guard: Guard;
  run: (c: RouteContext) => Promise<void>;
  failed?: (c: FailedContext, e: unknown) => Promise<void>;
};

/** How an admin (a person, or the admin token) is named on the tape and in records they create. */
export const adminActor = (id: Identity): string =>
  id.kind === "user" ? id.email : id.kind === "admin-token" ? `admin:${id.label}` : "unknown";

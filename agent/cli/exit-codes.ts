// Exit codes a script (or an agent's tool runner) can branch on.
import { isTransient } from "../sdk/client";
import { Interrupted, PodwatchError, UsageError } from "../sdk/errors";

export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  invalid: 3,
  auth: 4,
  notFound: 5,
  conflict: 6,
  unavailable: 7,
  timeout: 8,
  interrupted: 130,
} as const;

export const EXIT_HELP = `Exit codes:
  0  done
  1  unexpected error
  2  usage: unknown command or option, missing configuration, unreadable file
  3  invalid: the input broke a schema (400/422); the message names the field
  4  not allowed: the token was refused (unknown, revoked, mistyped: 401) or may not do this,
     e.g. it belongs to another pod (403)
  5  not found: no such pod or blob (404); an unknown task or member named in an event is 3
  6  conflict: a pod rule refused it, e.g. a task not in the right state (409)
  7  unavailable: server unreachable, overloaded or failing (429/5xx)
  8  timed out waiting (escalate --wait --timeout, wait --timeout)
  130 interrupted (Ctrl-C)`;

export function exitCodeOf(e: unknown): number {
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof Interrupted) return EXIT.interrupted;
  if (!(e instanceof PodwatchError)) return EXIT.internal;
  if (isTransient(e)) return EXIT.unavailable;
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  if (e.status === 404) return EXIT.notFound;
  if (e.status === 409) return EXIT.conflict;
  return EXIT.invalid;
}

// A tool.call's gate says who decided it. "policy", "person" and "deadline" are podwatch's own
// word, written only by the hook route after it decided; an agent writing one through the events
// API would forge a decision nobody made. "unreachable" stays the agent's: the command hook
// reports with it what its own rule decided while podwatch could not be reached.
import { AppError } from "../domain/errors";
import type { Identity } from "../domain/access/policy";
import type { TEvent } from "../wire/events";

const PODWATCHS = new Set(["policy", "person", "deadline"]);

export function refuseForgedGates(identity: Identity, events: readonly TEvent[]) {
  if (identity.kind !== "agent") return;
  // Only the hook route asks a person about a held call: an approval an agent wrote itself could
  // show the person one input while the route holds (and then allows) another under its id.
  const asked = events.findIndex((e) => e.type === "tool.approval.requested");
  if (asked !== -1) throw new AppError(422, "approval_is_podwatchs", `events.${asked}: tool.approval.requested is written by podwatch's hook route when a tool policy says ask; an agent's token cannot append it`);
  const i = events.findIndex((e) => e.type === "tool.call" && e.body.gate && PODWATCHS.has(e.body.gate.by));
  if (i === -1) return;
  throw new AppError(422, "gate_is_podwatchs", `events.${i}: a tool.call's gate by "policy", "person" or "deadline" is written by podwatch's hook route when it decides a call, never by an agent; an agent may report only gate.by "unreachable"`);
}

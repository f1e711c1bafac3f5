// A tool.call's gate says who decided it. "policy", "person" and "deadline" are podwatch's own
// word, written only by the hook route after it decided; an agent (or a person) writing one
// through any door would forge a decision nobody made. "unreachable" stays the agent's: the command hook reports
// with it what its own rule decided while podwatch could not be reached. The same holds for a
// steer's delivery (server/steer/deliver-steers.ts) and a Stop held for a Resume (hold-idle-stop.ts).
import type { Verdict } from "./policy";

const PODWATCHS = new Set(["policy", "person", "deadline"]);

type Written = { type: string; body?: unknown };
const gateBy = (e: Written) => ((e.body ?? {}) as { gate?: { by?: unknown } }).gate?.by;

/** A caller's events, refused (422) when they carry a decision only podwatch's hook route makes. */
export function refuseForgedGates(events: readonly Written[]): Verdict {
  // Only the hook route asks a person about a held call: an approval an agent wrote itself could
  // show the person one input while the route holds (and then allows) another under its id.
  const asked = events.findIndex((e) => e.type === "tool.approval.requested");
  if (asked !== -1) {
    const message = `events.${asked}: tool.approval.requested is written by podwatch's hook route when a tool policy says ask; an agent or a person cannot append it`;
    return { ok: false, status: 422, code: "approval_is_podwatchs", message };
  }
  // A steer is delivered when the hook route hands it to the agent: an agent that wrote its own
  // delivery would silence a person's interrupt while the tape says it was heard.
  const delivered = events.findIndex((e) => e.type === "session.steer.delivered");
  if (delivered !== -1) {
    const message = `events.${delivered}: session.steer.delivered is written by podwatch's hook route when it hands a person's words to the agent; an agent or a person cannot append it`;
    return { ok: false, status: 422, code: "delivery_is_podwatchs", message };
  }
  // A Stop is held by the hook route, which then answers it: one written through another door would
  // tell the approvers (and their phones) that an agent waits for them when nothing does.
  const held = events.findIndex((e) => e.type === "session.idle.held");
  if (held !== -1) {
    const message = `events.${held}: session.idle.held is written by podwatch's hook route when it holds an agent's Stop for a person's Resume; an agent or a person cannot append it`;
    return { ok: false, status: 422, code: "idle_hold_is_podwatchs", message };
  }
  const i = events.findIndex((e) => e.type === "tool.call" && PODWATCHS.has(gateBy(e) as string));
  if (i === -1) return { ok: true };
  const message = `events.${i}: a tool.call's gate by "policy", "person" or "deadline" is written by podwatch's hook route when it decides a call, never by an agent or a person; an agent may report only gate.by "unreachable"`;
  return { ok: false, status: 422, code: "gate_is_podwatchs", message };
}

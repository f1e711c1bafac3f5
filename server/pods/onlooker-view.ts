// What a share link's onlooker reads of a pod's state: the pod's people by name, never by their
// email (a person's member id is their email). Every string equal to a person's id, wherever it is
// in the view (members, role changes, handoffs, tasks, decisions, cards), becomes their name.
import type { PodStateView } from "../wire/views";

/** Each person's id → a name an onlooker may read: their display name, made unique, never an email. */
function aliases(view: PodStateView): Map<string, string> {
  const people = view.members.filter((m) => m.kind === "human");
  const names = new Map<string, string>();
  const taken = new Set(view.members.filter((m) => m.kind === "agent").map((m) => m.memberId));
  people.forEach((p, i) => {
    let name = p.displayName.includes("@") ? `person ${i + 1}` : p.displayName;
    if (taken.has(name)) name = `${name} (${i + 1})`;
    taken.add(name);
    names.set(p.memberId, name);
  });
  return names;
}

function replaceIds(value: unknown, names: Map<string, string>): unknown {
  if (typeof value === "string") return names.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => replaceIds(v, names));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replaceIds(v, names);
    return out;
  }
  return value;
}

export function onlookerView(view: PodStateView): PodStateView {
  const names = aliases(view);
  return names.size ? (replaceIds(view, names) as PodStateView) : view;
}

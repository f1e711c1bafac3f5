// What a share link's onlooker may read of the people of a pod: their names, never the login they
// sign in with (a person's member id is their email). One rule for every door an onlooker reads
// through (the state, the tape, live frames, signals): a string that is a person's id becomes their
// name; any email address inside any text (or key) becomes that person's name when it is one of the
// pod's people, else "a person" (someone who left, an address an agent quoted). Pure: the callers
// say who the pod's people are (server/pods/onlooker-view.ts).

export type Person = { memberId: string; kind: "agent" | "human"; displayName: string; joinedSeq: number };

/** What an email address of someone the pod does not name reads as. */
export const SOMEONE = "a person";

// Bounded by the lengths an address may have: unbounded runs made this quadratic, and a note of 20k
// letters before an "@" held the loop for a second.
const EMAIL = String.raw`[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.[A-Za-z]{2,63}`;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Each person's id → their display name, or "person #<the seq they joined at>" when that name is an
 * email; a name an agent or another person already goes by gets the seq too. Keyed by the seq, not
 * by a position, so a name stays the same when someone else leaves.
 */
export function namesOfPeople(members: readonly Person[]): Map<string, string> {
  const people = members.filter((m) => m.kind === "human");
  const taken = new Set(
    members.filter((m) => m.kind === "agent").flatMap((m) => [m.memberId, m.displayName]),
  );
  const seen = new Map<string, number>();
  for (const p of people)
    if (!p.displayName.includes("@")) seen.set(p.displayName, (seen.get(p.displayName) ?? 0) + 1);
  const names = new Map<string, string>();
  for (const p of people) {
    const own = p.displayName.trim() && !p.displayName.includes("@") ? p.displayName : null;
    names.set(
      p.memberId,
      own === null
        ? `person #${p.joinedSeq}`
        : taken.has(own) || seen.get(own)! > 1
          ? `${own} #${p.joinedSeq}`
          : own,
    );
  }
  return names;
}

/** Cleans a value at once (a frame), or in steps a caller may pause between (a pod's whole view). */
export type HidePeople = (<T>(value: T) => T) & { steps: <T>(value: T) => Generator<void, T> };

const NONE: ReadonlySet<string> = new Set();

/** Collections this shallow are cleaned a child per step; each child at once (a task, an event). */
const STEPPED_DEPTH = 2;

/**
 * A cleaner for one set of names: the same value back (not a copy) where it names nobody. `blank`:
 * keys whose text goes whole (an event's hash is over its actor as written: one could test guesses).
 */
export function hidePeople(
  names: ReadonlyMap<string, string>,
  blank: ReadonlySet<string> = NONE,
): HidePeople {
  const lower = new Map([...names].map(([id, name]) => [id.toLowerCase(), name]));
  const known = [...names.keys()].filter((id) => id.includes("@")).sort((a, b) => b.length - a.length);
  const pattern = new RegExp([...known.map(escapeRe), EMAIL].join("|"), "gi");
  const text = (s: string): string => {
    const name = names.get(s);
    if (name !== undefined) return name;
    if (!s.includes("@")) return s;
    return s.replace(pattern, (m) => lower.get(m.toLowerCase()) ?? SOMEONE);
  };
  /** The collection with its keys cleaned and each child as `child` makes it; copied only once something changed. */
  const rebuild = (value: object, child: (v: unknown) => unknown): unknown => {
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const w = child(value[i]);
        if (w !== value[i]) (out ??= value.slice())[i] = w;
      }
      return out ?? value;
    }
    const from = value as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    for (const k in from) {
      if (!Object.hasOwn(from, k)) continue;
      const [k2, w] = [text(k), blank.has(k) && typeof from[k] === "string" ? "" : child(from[k])];
      if (out) out[k2] = w;
      else if (k2 !== k || w !== from[k]) {
        out = {};
        for (const before in from) {
          if (before === k) break;
          if (Object.hasOwn(from, before)) out[before] = from[before];
        }
        out[k2] = w;
      }
    }
    return out ?? value;
  };
  const walk = (value: unknown): unknown =>
    typeof value === "string"
      ? text(value)
      : value !== null && typeof value === "object"
        ? rebuild(value, walk)
        : value;
  function* steps(value: unknown, depth: number): Generator<void, unknown> {
    if (depth >= STEPPED_DEPTH || value === null || typeof value !== "object") return walk(value);
    const cleaned: unknown[] = [];
    for (const v of Array.isArray(value) ? value : Object.values(value)) {
      cleaned.push(yield* steps(v, depth + 1));
      yield;
    }
    let i = 0;
    return rebuild(value, () => cleaned[i++]);
  }
  const clean = <T>(value: T) => walk(value) as T;
  return Object.assign(clean, { steps: <T>(value: T) => steps(value, 0) as Generator<void, T> });
}

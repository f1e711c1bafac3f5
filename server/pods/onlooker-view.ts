// Where a share link's onlooker's view is made, for every door it reads through: the REST reads
// (server/http/operation-routes.ts, tape-routes.ts) and the live frames (server/realtime/). People
// are named as the pod knows them now, by the one rule of server/domain/access/hide-people.ts.
import { hidePeople, namesOfPeople, type HidePeople, type Person } from "../domain/access/hide-people";
import type { Identity } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import type { PodState } from "../domain/state/pod-state";
import type { TapeStore } from "../db/tape-store";
import { TimeSlices } from "../db/time-slices";
import { PAST_THE_HEAD } from "../tape/read-events-page";
import type { PodStateView } from "../wire/views";

/**
 * Hashes an onlooker does not read: each is over an event as written, its actor's address with it,
 * so a guess could be tested against it. The chain is still checked for them, by the server (GET …/verify).
 */
const HASHES: ReadonlySet<string> = new Set(["hash", "prevHash", "headHash"]);

/** The onlooker's cleaner for these people (id → name; none: every address reads as SOMEONE). */
const cleanerFor = (names: ReadonlyMap<string, string>) => hidePeople(names, HASHES);

/** The cleaner for an onlooker of the pod in this state (its members now). */
export const onlookerCleaner = (state: Pick<PodState, "members">): HidePeople =>
  cleanerFor(namesOfPeople(Object.values(state.members)));

/** Answers already made for an onlooker (the state view, named as of its seq): not walked again. */
const madeForOnlookers = new WeakSet<object>();

/** Cleans in slices: a lived-in pod's view is ~1.3 MB, more than one turn of the loop may take. */
const inSlices = <T>(cleaner: HidePeople, value: T): Promise<T> => new TimeSlices().run(cleaner.steps(value));

/** What the caller reads: as it is, or for a share link as its onlooker may read it. */
export async function asSeenBy<T>(
  store: TapeStore,
  identity: Identity,
  value: T,
  state?: PodState | null,
): Promise<T> {
  if (identity.kind !== "share") return value;
  if (typeof value === "object" && value !== null && madeForOnlookers.has(value)) return value;
  // A `{ pod }` door lets a share link through to its own pod only: the state it read is that pod's.
  const pod = state ?? (await store.readState(identity.podId));
  // No state to name people from: every address still goes (SOMEONE), nothing is left as it was.
  return inSlices(pod ? onlookerCleaner(pod) : cleanerFor(new Map()), value);
}

/**
 * A search of the tape as an onlooker asks it: an actor by the name it reads them by (the person's
 * id is searched). An address is refused: found or not, it would tell who is on the pod. The text
 * (`q`) is not searched in the stored events, where the addresses are: it is left to
 * `matchingText`, over the events as the onlooker reads them, so what matches tells nothing more.
 */
export function onlookerSearch<Q extends { actor?: string; q?: string; before?: number }>(
  state: Pick<PodState, "members">,
  query: Q,
): { query: Q; text: string | null } {
  for (const field of ["actor", "q"] as const)
    if (query[field]?.includes("@"))
      throw new AppError(
        422,
        "invalid_request",
        `${field}: a share link searches people by name, not by email`,
      );
  const { q, ...rest } = query;
  // Still a search (newest first) without its text: the page the text is then looked for in.
  const asked = (q ? { ...rest, before: query.before ?? PAST_THE_HEAD } : rest) as Q;
  const named = [...namesOfPeople(Object.values(state.members))].find(([, name]) => name === query.actor);
  return { query: named ? { ...asked, actor: named[0] } : asked, text: q?.trim().toLowerCase() || null };
}

/** The events of an onlooker's page that hold `text`, as they read them (any case). */
export function matchingText<P extends { events: { body?: unknown; actor: string }[] }>(
  page: P,
  text: string,
): P {
  return { ...page, events: page.events.filter((e) => JSON.stringify(e).toLowerCase().includes(text)) };
}

/** The state view of a past seq: people named as now, and as then for those who have left since. */
export async function onlookerView(
  view: PodStateView,
  now?: Pick<PodState, "members">,
): Promise<PodStateView> {
  const members = new Map<string, Person>(view.members.map((m) => [m.memberId, m]));
  for (const m of Object.values(now?.members ?? {})) members.set(m.memberId, m);
  const seen = await inSlices(cleanerFor(namesOfPeople([...members.values()])), view);
  madeForOnlookers.add(seen);
  return seen;
}

/**
 * The names of a pod with onlookers watching it live, kept up from its frames: a person who joins
 * is named from their `member.joined`, one removed is no longer (their address reads as SOMEONE).
 */
export class OnlookerNames {
  private members: Map<string, Person>;
  private cleaner: HidePeople;

  constructor(state: Pick<PodState, "members">) {
    this.members = new Map(Object.values(state.members).map((m) => [m.memberId, m]));
    this.cleaner = cleanerFor(namesOfPeople([...this.members.values()]));
  }

  /** Learns who joined or left in these events (in seq order); then cleans them. */
  follow<E extends { type: string; seq: number; body: unknown }>(events: E[]): E[] {
    let changed = false;
    for (const e of events) {
      const body = (e.body ?? {}) as { memberId?: unknown; kind?: unknown; displayName?: unknown };
      if (typeof body.memberId !== "string") continue;
      if (e.type === "member.joined" && (body.kind === "human" || body.kind === "agent")) {
        const displayName = typeof body.displayName === "string" ? body.displayName : body.memberId;
        this.members.set(body.memberId, {
          memberId: body.memberId,
          kind: body.kind,
          displayName,
          joinedSeq: e.seq,
        });
        changed = true;
      } else if (e.type === "access.revoked") changed = this.members.delete(body.memberId) || changed;
    }
    if (changed) this.cleaner = cleanerFor(namesOfPeople([...this.members.values()]));
    return this.cleaner(events);
  }

  clean<T>(value: T): T {
    return this.cleaner(value);
  }
}

// A record (id → value) that an update copies in part, not whole: a hash trie of 32-way nodes,
// so setting or removing one key copies the ~3 nodes on its path and shares the rest with the
// record it came from. The fold keeps every state it handed out unchanged (the cache, the live
// deltas and the checkpoints hold earlier states), so without sharing an event on a pod with
// 3,000 tasks copied 3,000 entries. To everything else it is a plain object: a Proxy answers
// reads, `in`, Object.keys/values/entries, spreads and JSON.stringify as the object with the
// same entries would (keys in the same order), and refuses writes. A state parsed from JSON
// holds plain objects; `withKey` turns one into a shared record the first time it changes.
const BITS = 5;
const MASK = (1 << BITS) - 1;
/** Records this small stay plain objects: copying them is cheaper than a trie. */
const PLAIN_UP_TO = 8;
const ROOT = Symbol("shared record");

type Entry<T> = { readonly key: string; readonly hash: number; readonly value: T; readonly ord: number };
/** Keys of one full hash (a collision) live together in a list. */
type Slot<T> = Entry<T> | Entry<T>[] | Node<T> | undefined;
class Node<T> {
  constructor(readonly slots: Slot<T>[]) {}
}
/** `view`: the plain object with these entries, made the first time the record is listed (memoised: a root never changes). */
type Root<T> = {
  readonly node: Node<T>;
  readonly size: number;
  readonly nextOrd: number;
  view?: Record<string, T>;
};

function hashOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
const emptyNode = <T>() => new Node<T>(new Array<Slot<T>>(1 << BITS).fill(undefined));

function find<T>(root: Root<T>, key: string): Entry<T> | undefined {
  const hash = hashOf(key);
  let slot: Slot<T> = root.node;
  for (let shift = 0; slot instanceof Node; shift += BITS) slot = slot.slots[(hash >>> shift) & MASK];
  if (Array.isArray(slot)) return slot.find((e) => e.key === key);
  return slot?.key === key ? slot : undefined;
}

/** Two entries of different hashes under one slot: a node per shared bit group, down to where they differ. */
function split<T>(a: Entry<T>, b: Entry<T>, shift: number): Node<T> {
  const node = emptyNode<T>();
  const [ia, ib] = [(a.hash >>> shift) & MASK, (b.hash >>> shift) & MASK];
  if (ia === ib) node.slots[ia] = split(a, b, shift + BITS);
  else [node.slots[ia], node.slots[ib]] = [a, b];
  return node;
}

/** `node` with `entry` in place of the entry of its key (or added); only the path to it is copied. */
function put<T>(node: Node<T>, entry: Entry<T>, shift: number): Node<T> {
  const i = (entry.hash >>> shift) & MASK;
  const slot = node.slots[i];
  const slots = node.slots.slice();
  if (slot instanceof Node) slots[i] = put(slot, entry, shift + BITS);
  else if (Array.isArray(slot)) slots[i] = [...slot.filter((e) => e.key !== entry.key), entry];
  else if (!slot || slot.key === entry.key) slots[i] = entry;
  else slots[i] = slot.hash === entry.hash ? [slot, entry] : split(slot, entry, shift + BITS);
  return new Node(slots);
}

/** Adds an entry of a new key to a trie this build made and nobody else holds yet: in place, no path copied. */
function putFresh<T>(node: Node<T>, entry: Entry<T>, shift: number): void {
  const i = (entry.hash >>> shift) & MASK;
  const slot = node.slots[i];
  if (slot instanceof Node) putFresh(slot, entry, shift + BITS);
  else if (Array.isArray(slot)) slot.push(entry);
  else if (!slot) node.slots[i] = entry;
  else node.slots[i] = slot.hash === entry.hash ? [slot, entry] : split(slot, entry, shift + BITS);
}

function remove<T>(node: Node<T>, key: string, hash: number, shift: number): Node<T> {
  const i = (hash >>> shift) & MASK;
  const slot = node.slots[i];
  const slots = node.slots.slice();
  if (slot instanceof Node) slots[i] = remove(slot, key, hash, shift + BITS);
  else if (Array.isArray(slot))
    slots[i] = slot.length === 2 ? slot.find((e) => e.key !== key) : slot.filter((e) => e.key !== key);
  else slots[i] = undefined;
  return new Node(slots);
}

function collect<T>(slot: Slot<T>, out: Entry<T>[]): Entry<T>[] {
  if (slot instanceof Node) for (const s of slot.slots) collect(s, out);
  else if (Array.isArray(slot)) out.push(...slot);
  else if (slot) out.push(slot);
  return out;
}

/** A plain object lists integer-like keys first, ascending, then the others in insertion order. */
const isIndex = (key: string) => /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1;
function inKeyOrder<T>(entries: Entry<T>[]): string[] {
  const index = entries.filter((e) => isIndex(e.key)).sort((a, b) => Number(a.key) - Number(b.key));
  const named = entries.filter((e) => !isIndex(e.key)).sort((a, b) => a.ord - b.ord);
  return [...index, ...named].map((e) => e.key);
}
/**
 * Listing a record reads every entry: it is answered from a plain object built once per root in
 * insertion order (an object orders integer-like keys itself), so a walk of the keys costs plain
 * property reads, not a trie lookup each.
 */
function viewOf<T>(root: Root<T>): Record<string, T> {
  if (root.view) return root.view;
  const view = Object.create(null) as Record<string, T>;
  for (const e of collect(root.node, []).sort((a, b) => a.ord - b.ord)) view[e.key] = e.value;
  return (root.view = view);
}

/** Whether the record has `key`, from the plain view when it was listed already. */
function hasKey<T>(root: Root<T>, key: string): boolean {
  return root.view ? Object.hasOwn(root.view, key) : find(root, key) !== undefined;
}

/**
 * JSON.stringify asks a value for toJSON first: a record without such a key answers with its plain
 * view, which serialises as fast as the plain object would (and as the same text).
 */
function serialise(this: object) {
  return viewOf(rootOf(this));
}

const refuse = (): never => {
  throw new TypeError(
    "a pod state's records are never changed in place: build a new one (withKey, withoutKey)",
  );
};
const handler: ProxyHandler<object> = {
  get: (target, prop) => {
    if (typeof prop === "string") {
      const root = rootOf(target);
      if (root.view) {
        if (Object.hasOwn(root.view, prop)) return root.view[prop];
      } else {
        const entry = find(root, prop);
        if (entry) return entry.value;
      }
    }
    return prop === "toJSON" ? serialise : Reflect.get(target, prop);
  },
  has: (target, prop) =>
    (typeof prop === "string" && hasKey(rootOf(target), prop)) || Reflect.has(target, prop),
  ownKeys: (target) => Object.keys(viewOf(rootOf(target))),
  getOwnPropertyDescriptor: (target, prop) => {
    if (typeof prop !== "string") return undefined;
    const root = rootOf(target);
    if (root.view) return Reflect.getOwnPropertyDescriptor(root.view, prop);
    const entry = find(root, prop);
    return entry ? { value: entry.value, writable: true, enumerable: true, configurable: true } : undefined;
  },
  set: refuse,
  defineProperty: refuse,
  deleteProperty: refuse,
  setPrototypeOf: refuse,
  preventExtensions: refuse,
};
/** The target holds its root under a symbol no plain object has; ownKeys does not list it. */
const rootOf = <T>(record: object) => (record as { [ROOT]?: Root<T> })[ROOT]!;

function wrap<T>(root: Root<T>): Record<string, T> {
  return new Proxy({ [ROOT]: root }, handler) as Record<string, T>;
}

export const isShared = (record: object) => ROOT in record && rootOf(record) !== undefined;

/** A shared record with the entries of `record`, in its order. */
export function toShared<T>(record: Record<string, T>): Record<string, T> {
  if (isShared(record)) return record;
  const node = emptyNode<T>();
  const keys = Object.keys(record);
  keys.forEach((key, ord) => putFresh(node, { key, hash: hashOf(key), value: record[key]!, ord }, 0));
  return wrap({ node, size: keys.length, nextOrd: keys.length });
}

const small = (record: object) => {
  let n = 0;
  for (const key in record) if (Object.hasOwn(record, key) && ++n > PLAIN_UP_TO) return false;
  return true;
};

/** `record` with `key` set to `value`: a new record; `record` is unchanged. */
export function withKey<T>(record: Record<string, T>, key: string, value: T): Record<string, T> {
  if (!isShared(record) && small(record)) return { ...record, [key]: value };
  const root = rootOf<T>(toShared(record));
  const old = find(root, key);
  const entry = { key, hash: old?.hash ?? hashOf(key), value, ord: old?.ord ?? root.nextOrd };
  return wrap({
    node: put(root.node, entry, 0),
    size: root.size + (old ? 0 : 1),
    nextOrd: root.nextOrd + (old ? 0 : 1),
  });
}

/** `record` without `key` (own keys only: the very record when it has none). */
export function withoutKey<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!Object.hasOwn(record, key)) return record;
  if (!isShared(record)) {
    const { [key]: _gone, ...rest } = record;
    return rest;
  }
  const root = rootOf<T>(record);
  return wrap({ node: remove(root.node, key, hashOf(key), 0), size: root.size - 1, nextOrd: root.nextOrd });
}

/** How many keys: a count kept by a shared record, a walk of a plain one. */
export const sizeOf = (record: object) =>
  isShared(record) ? rootOf(record).size : Object.keys(record).length;

/**
 * The keys whose value is not the very same in `next` as in `prev` (set or changed), and those
 * gone, each in its record's key order. Two versions of one shared record are compared by their
 * differing subtrees only, so the cost is the change's, not the record's.
 */
export function changedKeys<T>(
  prev: Record<string, T>,
  next: Record<string, T>,
): { put: string[]; drop: string[] } {
  if (prev === next) return { put: [], drop: [] };
  if (isShared(prev) && isShared(next)) {
    const put: Entry<T>[] = [];
    const drop: Entry<T>[] = [];
    diffSlots(rootOf<T>(prev).node, rootOf<T>(next).node, put, drop);
    return { put: inKeyOrder(put), drop: inKeyOrder(drop) };
  }
  return {
    put: Object.keys(next).filter((key) => !Object.hasOwn(prev, key) || prev[key] !== next[key]),
    drop: Object.keys(prev).filter((key) => !Object.hasOwn(next, key)),
  };
}

function diffSlots<T>(a: Slot<T>, b: Slot<T>, put: Entry<T>[], drop: Entry<T>[]) {
  if (a === b) return;
  if (a instanceof Node && b instanceof Node) {
    for (let i = 0; i < a.slots.length; i++) diffSlots(a.slots[i], b.slots[i], put, drop);
    return;
  }
  const before = new Map(collect(a, []).map((e) => [e.key, e.value]));
  const after = collect(b, []);
  for (const e of after) if (!before.has(e.key) || before.get(e.key) !== e.value) put.push(e);
  const kept = new Set(after.map((e) => e.key));
  for (const e of collect(a, [])) if (!kept.has(e.key)) drop.push(e);
}

// Secrets every node of one installation must hold alike (Better Auth's secret signs sessions,
// the VAPID pair signs pushes): on PostgreSQL they live in the installation_secret table, one row
// per name. The first node to start inserts its candidate with ON CONFLICT DO NOTHING and every
// node reads the row back, so nodes starting together agree on the winner; the row never changes.
import type { TapeStore } from "../db/tape-store";

/** The installation's value for `name`, or null when no node has stored one yet. */
export async function readSharedSecret(store: TapeStore, name: string): Promise<string | null> {
  const rows = await store.prisma.$queryRaw<
    { value: string }[]
  >`SELECT value FROM installation_secret WHERE name = ${name}`;
  return rows[0]?.value ?? null;
}

/**
 * The installation's value for `name`, created from `candidate()` when there is none yet (called
 * only then: a generated key pair costs nothing when a row exists). `candidate` may adopt what a
 * node kept in its data folder before, so an upgraded installation keeps its sessions and devices.
 */
export async function sharedSecret(store: TapeStore, name: string, candidate: () => string): Promise<string> {
  const existing = await readSharedSecret(store, name);
  if (existing !== null) return existing;
  await store.prisma
    .$executeRaw`INSERT INTO installation_secret (name, value, created_at) VALUES (${name}, ${candidate()}, ${new Date().toISOString()}) ON CONFLICT (name) DO NOTHING`;
  const value = await readSharedSecret(store, name);
  if (value === null)
    throw new Error(`podwatch: the installation's ${name} could not be stored in the database`);
  return value;
}

// On the very first start there is nobody to sign in as: create a site admin
// with a one-time password and say how to sign in. Never logged again. The
// admin is asked (a banner on every page) to choose their own password.
// Several nodes may start at once on an empty PostgreSQL database: they take
// turns on an advisory lock, so exactly one counts no users and creates the
// admin; the others then count one and create nobody.
import { randomBytes } from "node:crypto";
import type { AccessContext } from "./access-context";
import { countUsers, createUser } from "./create-user";
import { advisoryLocks } from "../db/advisory-locks";

const BOOTSTRAP_LOCK = advisoryLocks.bootstrapAdmin;

type Access = Pick<AccessContext, "auth" | "store">;
type FirstAdmin = { email: string; password: string };

export async function bootstrapAdmin(access: Access, email: string): Promise<FirstAdmin | null> {
  if (access.store.kind !== "postgres") return createFirstAdmin(access, email);
  // The lock is held by this transaction's connection until it ends; Better Auth writes the user on
  // others from the pool, and the next node's count waits for the lock, so it sees the user.
  return access.store.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`;
      return createFirstAdmin(access, email);
    },
    { maxWait: 10_000, timeout: 60_000 },
  );
}

async function createFirstAdmin(access: Access, email: string): Promise<FirstAdmin | null> {
  if ((await countUsers(access.auth)) > 0) return null;
  const password = randomBytes(12).toString("base64url");
  const user = await createUser(access.auth, { email, name: "Administrator", password, isAdmin: true });
  await access.store.prisma.user.update({ where: { id: user.id }, data: { mustChangePassword: true } });
  return { email, password };
}

// On the very first start there is nobody to sign in as: create a site admin
// with a one-time password and say how to sign in. Never logged again. The
// admin is asked (a banner on every page) to choose their own password.
// Several nodes may start at once on an empty PostgreSQL database: they take
// turns on an advisory lock, so exactly one counts no users and creates the
// admin; the others then count one and create nobody.
// Making the admin is three writes (user, password, must-change flag): a crash
// between the first two leaves an admin nobody can sign in as, and every later
// start would see a user and make none. A start that finds the installation's only
// admin without a password finishes the job, and prints the password as the first did.
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
  const unfinished = await adminWithoutPassword(access);
  if (unfinished) return finishAdmin(access, unfinished);
  if ((await countUsers(access.auth)) > 0) return null;
  const password = oneTimePassword();
  const user = await createUser(access.auth, { email, name: "Administrator", password, isAdmin: true });
  await access.store.prisma.user.update({ where: { id: user.id }, data: { mustChangePassword: true } });
  return { email, password };
}

const oneTimePassword = () => randomBytes(12).toString("base64url");

/** The only admin, when they have no password to sign in with (a first start cut short). */
async function adminWithoutPassword({ store }: Access): Promise<{ id: string; email: string } | null> {
  const admins = await store.prisma.user.findMany({
    where: { isAdmin: true },
    select: {
      id: true,
      email: true,
      accounts: { where: { providerId: "credential" }, select: { id: true } },
    },
    take: 2,
  });
  return admins.length === 1 && admins[0]!.accounts.length === 0 ? admins[0]! : null;
}

async function finishAdmin(access: Access, admin: { id: string; email: string }): Promise<FirstAdmin> {
  const ctx = await access.auth.$context;
  const password = oneTimePassword();
  await ctx.internalAdapter.linkAccount({
    userId: admin.id,
    providerId: "credential",
    accountId: admin.id,
    password: await ctx.password.hash(password),
  });
  await access.store.prisma.user.update({ where: { id: admin.id }, data: { mustChangePassword: true } });
  return { email: admin.email, password };
}

// People against the real server and database: invites (single use, expiry,
// duplicates refused with nothing stored), the invite page's accept step, password
// resets that end the old sessions, mail by SMTP to a real local SMTP server, and
// a person's pod access changed and removed through the API.
import { randomUUID } from "node:crypto";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startTestServer, type TestServer } from "../testing/test-server";
import { testProviders } from "../testing/test-databases";
import { performAcceptInvite } from "../web/people-actions";
import { performOperation } from "../web/perform-operation";
import { peopleOperations } from "../access/people-operations";
import { memberOperations } from "../access/member-operations";
import { bootstrapAdmin } from "../access/bootstrap-admin";
import { resolveIdentity } from "../access/resolve-identity";
import { hashSecret } from "../access/secrets";

const PASSWORD = "a long enough password";

async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, "sign-in throttled").not.toBe(429);
  return res.ok
    ? {
        cookie: res.headers
          .getSetCookie()
          .map((c) => c.split(";")[0])
          .join("; "),
      }
    : null;
}

describe.each(testProviders())("people on %s", (provider) => {
  let s: TestServer;
  beforeAll(async () => {
    // Better Auth's sign-in throttle is per process, and both providers' servers sign in here.
    s = await startTestServer(provider, { PODWATCH_SIGN_INS_PER_MINUTE: "1000" });
  });
  afterAll(() => s.stop());

  const invite = (email: string, name?: string) =>
    api(s.url, "POST", "/api/v1/invites", { email, ...(name ? { name } : {}) });
  const invitesOf = (email: string) => s.app.store.prisma.invite.count({ where: { email } });

  it("the first-start admin is asked to change the printed password until they do", async () => {
    const first = (await bootstrapAdmin(s.app.access, "boot@example.com"))!;
    const flag = async () =>
      (await s.app.store.prisma.user.findUniqueOrThrow({ where: { email: "boot@example.com" } }))
        .mustChangePassword;
    expect(await flag()).toBe(true);
    const session = (await signIn(s.url, first.email, first.password))!;
    const identity = await resolveIdentity(s.app.access, new Headers({ cookie: session.cookie }));
    const change = (currentPassword: string) =>
      performOperation(
        s.app,
        identity as never,
        peopleOperations.changePassword,
        { currentPassword, newPassword: PASSWORD, confirm: PASSWORD },
        { headers: new Headers({ cookie: session.cookie }) },
      );
    expect(await change("not the printed one")).toMatchObject({
      ok: false,
      code: "wrong_password",
      error: "your current password is not right",
    });
    expect(await flag()).toBe(true);
    expect(await change(first.password)).toEqual({ ok: true, value: { changed: true } });
    expect(await flag()).toBe(false);
    expect(await signIn(s.url, first.email, PASSWORD)).not.toBeNull();
  });

  it("invites by a one-time link that makes an account; the link works once", async () => {
    const email = `ana-${randomUUID().slice(0, 6)}@example.com`;
    const r = await invite(email.toUpperCase(), "Ana");
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email, name: "Ana", kind: "invite", mailed: false, usedAt: null });
    expect(r.body.url).toBe(`${s.app.config.publicUrl}/invite/${r.body.token}`);
    const row = await s.app.store.prisma.invite.findFirstOrThrow({ where: { email } });
    expect(row.tokenHash).toBe(hashSecret(r.body.token)); // only the hash is stored
    expect(JSON.stringify(row)).not.toContain(r.body.token);
    expect(new Date(row.expiresAt).getTime() - new Date(row.createdAt).getTime()).toBe(7 * 24 * 3_600_000);

    const people = (await api(s.url, "GET", "/api/v1/users")).body;
    expect(people.pendingInvites.map((i: { email: string }) => i.email)).toContain(email);
    expect(JSON.stringify(people)).not.toContain(r.body.token);

    expect(
      await performAcceptInvite(s.app, {
        token: r.body.token,
        password: PASSWORD,
        confirm: "something else entirely",
      }),
    ).toMatchObject({ ok: false, code: "invalid_request" });
    expect(
      await performAcceptInvite(s.app, { token: r.body.token, password: "too short", confirm: "too short" }),
    ).toMatchObject({ ok: false, code: "invalid_request" });
    expect(await s.app.store.prisma.user.count({ where: { email } })).toBe(0);

    expect(
      await performAcceptInvite(s.app, { token: r.body.token, password: PASSWORD, confirm: PASSWORD }),
    ).toEqual({ ok: true, value: { email, kind: "invite" } });
    expect(await signIn(s.url, email, PASSWORD)).not.toBeNull();
    const user = await s.app.store.prisma.user.findUniqueOrThrow({ where: { email } });
    expect(user).toMatchObject({ name: "Ana", isAdmin: false, mustChangePassword: false });

    expect(
      await performAcceptInvite(s.app, {
        token: r.body.token,
        password: "another long password",
        confirm: "another long password",
      }),
    ).toMatchObject({ ok: false, code: "invite_used" });
    expect(await signIn(s.url, email, "another long password")).toBeNull();
    expect(
      await performAcceptInvite(s.app, { token: "pwi_nope", password: PASSWORD, confirm: PASSWORD }),
    ).toMatchObject({ ok: false, code: "invite_unknown" });
  });

  it("refuses an email that has an account or a pending invite, and a bad email, storing nothing", async () => {
    const email = `bo-${randomUUID().slice(0, 6)}@example.com`;
    expect((await invite(email)).status).toBe(201);
    const again = await invite(email);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("invite_pending");
    expect(await invitesOf(email)).toBe(1);

    const member = `cy-${randomUUID().slice(0, 6)}@example.com`;
    expect(
      (await api(s.url, "POST", "/api/v1/users", { email: member, name: "Cy", password: PASSWORD })).status,
    ).toBe(201);
    const taken = await invite(member);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({
      code: "user_exists",
      message: `${member} already has an account`,
    });
    expect(await invitesOf(member)).toBe(0);

    const bad = await invite("not an email");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("email");
  });

  it("an expired link says so and creates nothing", async () => {
    const email = `old-${randomUUID().slice(0, 6)}@example.com`;
    const token = `pwi_${randomUUID()}`;
    const past = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    await s.app.store.prisma.invite.create({
      data: {
        id: randomUUID(),
        email,
        kind: "invite",
        tokenHash: hashSecret(token),
        createdBy: "test",
        createdAt: past(8),
        expiresAt: past(1),
      },
    });
    expect(await performAcceptInvite(s.app, { token, password: PASSWORD, confirm: PASSWORD })).toMatchObject({
      ok: false,
      code: "invite_expired",
    });
    expect(await s.app.store.prisma.user.count({ where: { email } })).toBe(0);
    expect(
      (await s.app.store.prisma.invite.findUniqueOrThrow({ where: { tokenHash: hashSecret(token) } })).usedAt,
    ).toBeNull();
    // An expired invite is not pending: the admin can invite again.
    expect((await invite(email)).status).toBe(201);
  });

  it("a reset link sets a new password and ends the person's sessions; an older link stops working", async () => {
    const email = `dee-${randomUUID().slice(0, 6)}@example.com`;
    const { id } = (await api(s.url, "POST", "/api/v1/users", { email, name: "Dee", password: PASSWORD }))
      .body;
    const session = (await signIn(s.url, email, PASSWORD))!;
    expect((await api(s.url, "GET", "/api/v1/me", undefined, session)).status).toBe(200);
    expect((await api(s.url, "POST", "/api/v1/users/no-such-user/reset")).status).toBe(404);
    const first = (await api(s.url, "POST", `/api/v1/users/${id}/reset`)).body;
    const second = await api(s.url, "POST", `/api/v1/users/${id}/reset`);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ email, kind: "reset" });
    expect(
      await performAcceptInvite(s.app, {
        token: first.token,
        password: "first new password",
        confirm: "first new password",
      }),
    ).toMatchObject({ ok: false, code: "invite_used" });
    expect(await signIn(s.url, email, PASSWORD)).not.toBeNull(); // the old password works until the link is used

    const fresh = "a brand new password";
    expect(
      await performAcceptInvite(s.app, { token: second.body.token, password: fresh, confirm: fresh }),
    ).toEqual({ ok: true, value: { email, kind: "reset" } });
    expect((await api(s.url, "GET", "/api/v1/me", undefined, session)).status).toBe(401);
    expect(await signIn(s.url, email, PASSWORD)).toBeNull();
    expect(await signIn(s.url, email, fresh)).not.toBeNull();
  });

  it("changes, keeps and removes a person's pod access, each an event; a removed person no longer sees the pod", async () => {
    const podId = (await api(s.url, "POST", "/api/v1/pods", { name: "access", mode: "collaboration" })).body
      .id;
    const people = [
      `eve-${randomUUID().slice(0, 6)}@example.com`,
      `fay-${randomUUID().slice(0, 6)}@example.com`,
    ];
    for (const email of people)
      await api(s.url, "POST", "/api/v1/users", { email, name: email, password: PASSWORD });
    const [eve, fay] = people as [string, string];
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: eve,
      kind: "human",
      displayName: "Eve",
      roles: ["admin"],
    });
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: fay,
      kind: "human",
      displayName: "Fay",
      roles: ["viewer"],
    });
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: "bot",
      kind: "agent",
      displayName: "Bot",
      roles: [],
    });
    const eveSession = (await signIn(s.url, eve, PASSWORD))!;
    const faySession = (await signIn(s.url, fay, PASSWORD))!;
    const member = (id: string) =>
      api(
        s.url,
        "PATCH",
        `/api/v1/pods/${podId}/members/${encodeURIComponent(id)}`,
        { access: "approver" },
        eveSession,
      );

    const up = await member(fay);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({
      memberId: fay,
      access: "approver",
      events: [{ seq: expect.any(Number) }],
    });
    expect(
      (await api(s.url, "PATCH", `/api/v1/pods/${podId}/members/${fay}`, { access: "owner" }, eveSession))
        .status,
    ).toBe(400);
    expect((await member("bot")).status).toBe(422);
    expect((await member("nobody@example.com")).status).toBe(404);
    const last = await api(s.url, "DELETE", `/api/v1/pods/${podId}/members/${eve}`, undefined, eveSession);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe("last_admin");

    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, faySession)).status).toBe(200);
    const gone = await api(s.url, "DELETE", `/api/v1/pods/${podId}/members/${fay}`, undefined, eveSession);
    expect(gone.body).toMatchObject({ memberId: fay, access: null });
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, faySession)).status).toBe(403);
    expect(
      (await api(s.url, "GET", "/api/v1/pods", undefined, faySession)).body.pods.map(
        (p: { id: string }) => p.id,
      ),
    ).not.toContain(podId);
    const types = (await api(s.url, "GET", `/api/v1/pods/${podId}/events`)).body.events.map(
      (e: { type: string }) => e.type,
    );
    expect(types.slice(-2)).toEqual(["access.granted", "access.revoked"]);

    // Coming back is a new member.joined.
    expect(
      (
        await api(
          s.url,
          "POST",
          `/api/v1/pods/${podId}/members`,
          { memberId: fay, kind: "human", displayName: "Fay", roles: ["viewer"] },
          eveSession,
        )
      ).status,
    ).toBe(201);
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, faySession)).status).toBe(200);
  });

  it("adding someone without an account: a site admin is told to invite them first, a pod admin only that they have none", async () => {
    const podId = (await api(s.url, "POST", "/api/v1/pods", { name: "no-account", mode: "collaboration" }))
      .body.id;
    const [pat, sam] = [
      `pat-${randomUUID().slice(0, 6)}@example.com`,
      `sam-${randomUUID().slice(0, 6)}@example.com`,
    ];
    await api(s.url, "POST", "/api/v1/users", { email: pat, name: "Pat", password: PASSWORD });
    await api(s.url, "POST", "/api/v1/users", { email: sam, name: "Sam", password: PASSWORD, isAdmin: true });
    await api(s.url, "POST", `/api/v1/pods/${podId}/members`, {
      memberId: pat,
      kind: "human",
      displayName: "Pat",
      roles: ["admin"],
    });
    const identityOf = async (email: string) =>
      resolveIdentity(s.app.access, new Headers({ cookie: (await signIn(s.url, email, PASSWORD))!.cookie }));
    const nobody = { podId, email: `nobody-${randomUUID().slice(0, 6)}@example.com`, access: "viewer" };
    const before = (await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount;
    const add = memberOperations.addPersonToPod;
    expect(await performOperation(s.app, (await identityOf(pat)) as never, add, nobody)).toMatchObject({
      ok: false,
      code: "not_a_user",
      error: `there is no account for ${nobody.email} yet: a site administrator invites people`,
    });
    // The control room adds its "Invite them first" link beside a site admin's refusal: said once.
    expect(await performOperation(s.app, (await identityOf(sam)) as never, add, nobody)).toMatchObject({
      ok: false,
      code: "invite_first",
      error: `there is no account for ${nobody.email} yet`,
    });
    expect((await api(s.url, "GET", `/api/v1/pods/${podId}`)).body.eventCount).toBe(before);
  });
});

describe("invite mail", () => {
  const received: { to: string[]; body: string }[] = [];
  let smtp: SMTPServer;
  let s: TestServer;
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, done) {
        let body = "";
        stream.on("data", (c: Buffer) => (body += c.toString("utf8")));
        stream.on(
          "end",
          () => (received.push({ to: session.envelope.rcptTo.map((r) => r.address), body }), done()),
        );
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    const { port } = smtp.server.address() as { port: number };
    s = await startTestServer("sqlite", {
      PODWATCH_SMTP_URL: `smtp://127.0.0.1:${port}`,
      PODWATCH_SMTP_FROM: "podwatch <pods@example.com>",
    });
  });
  afterAll(async () => {
    await s.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it("sends the invite link by SMTP when PODWATCH_SMTP_URL is set", async () => {
    const r = await api(s.url, "POST", "/api/v1/invites", { email: "gil@example.com" });
    expect(r.status).toBe(201);
    expect(r.body.mailed).toBe(true);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(["gil@example.com"]);
    expect(received[0]!.body.replace(/=\r?\n/g, "")).toContain(r.body.url);
  });
});

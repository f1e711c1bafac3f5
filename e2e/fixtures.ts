import { test as base, expect, type APIRequestContext, type BrowserContext } from "@playwright/test";
import { randomUUID } from "node:crypto";
import { E2E_ADMIN_TOKEN } from "./constants";

/** Headers of the e2e server's admin token (site admin on the API). */
export const adminHeaders = { authorization: `Bearer ${E2E_ADMIN_TOKEN}` };
const admin = adminHeaders;

/** An event with a fresh id, as agents post them. */
export const ev = (type: string, actor: string, body: object, extra: object = {}) => ({ id: randomUUID(), type, actor, body, ...extra });
const unique = (p: string) => `${p}-${randomUUID().slice(0, 8)}`;

/** Each spec seeds its own pod and people through the public API, so specs run in parallel without a reset. */
export async function createPod(request: APIRequestContext, name = unique("e2e")) {
  const res = await request.post("/api/v1/pods", { data: { name, mode: "collaboration", scope: "seeded by an e2e spec" }, headers: admin });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

export async function postEvents(request: APIRequestContext, podId: string, events: object[]) {
  const res = await request.post(`/api/v1/pods/${podId}/events`, { data: { events }, headers: admin });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { events: { id: string; seq: number }[] }).events;
}

export async function adminPost(request: APIRequestContext, path: string, data: object) {
  const res = await request.post(path, { data, headers: admin });
  expect(res.status(), await res.text()).toBe(201);
  return res.json();
}

export type Person = { email: string; password: string };

/** A person with the given access to the pod. */
export async function createPerson(request: APIRequestContext, podId: string, access: "viewer" | "approver" | "admin"): Promise<Person> {
  const person = { email: `${unique(access)}@example.com`, password: "correct horse battery staple" };
  await adminPost(request, "/api/v1/users", { ...person, name: `An ${access}` });
  await adminPost(request, `/api/v1/pods/${podId}/members`, { memberId: person.email, kind: "human", displayName: `An ${access}`, roles: [access] });
  return person;
}

/** Signs a browser context in (the cookie lands in the context's jar). */
export async function signIn(context: BrowserContext, person: Person) {
  const res = await context.request.post("/api/auth/sign-in/email", { data: person });
  expect(res.status(), await res.text()).toBe(200);
}

export const checkpoint = (text: string) => ({
  id: randomUUID(),
  type: "checkpoint",
  actor: "implementer-e2e",
  role: "implementer",
  body: { completed: [text], next: ["keep going"], blocked: [] },
});

export { base as test, expect };

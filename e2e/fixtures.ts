import { test as base, expect, type APIRequestContext } from "@playwright/test";
import { randomUUID } from "node:crypto";

/** Each spec seeds its own pod through the public API, so specs run in parallel without a reset. */
export async function createPod(request: APIRequestContext, name = `e2e-${randomUUID().slice(0, 8)}`) {
  const res = await request.post("/api/v1/pods", { data: { name, mode: "collaboration", scope: "seeded by an e2e spec" } });
  expect(res.status()).toBe(201);
  return (await res.json()) as { id: string; name: string };
}

export async function postEvents(request: APIRequestContext, podId: string, events: object[]) {
  const res = await request.post(`/api/v1/pods/${podId}/events`, { data: { events } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { events: { id: string; seq: number }[] }).events;
}

export const checkpoint = (text: string) => ({
  id: randomUUID(),
  type: "checkpoint",
  actor: "implementer-e2e",
  role: "implementer",
  body: { completed: [text], next: ["keep going"], blocked: [] },
});

export { base as test, expect };

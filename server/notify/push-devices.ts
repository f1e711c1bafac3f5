// A person's devices for Web Push: one subscription per browser, at most
// MAX_DEVICES a person (each new item is sent to every one of them). Subscribing
// the same browser again (same endpoint) replaces its keys and label; an endpoint
// registered to another person is refused (whoever learns one cannot take the device).
import { randomUUID } from "node:crypto";
import type { TapeStore } from "../db/tape-store";
import type { Identity } from "../domain/access/policy";
import { conflict, notFound } from "../domain/errors";
import type { PushDevice, TPushSubscriptionRequest } from "../wire/notifications";
import { person } from "./preferences";
import { checkPushEndpoint } from "./push-endpoint";

/** A short name for the device list, from the browser's User-Agent. */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "Browser";
  const os = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad/.test(ua)
      ? "iOS"
      : /Mac OS X/.test(ua)
        ? "macOS"
        : /Windows/.test(ua)
          ? "Windows"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return os ? `${browser} on ${os}` : browser;
}

/** A person's devices at most: a 21st is refused (409 too_many_devices) until one is removed. */
export const MAX_DEVICES = 20;

export async function listDevices(store: TapeStore, identity: Identity): Promise<PushDevice[]> {
  const rows = await store.prisma.pushSubscription.findMany({
    where: { userId: person(identity).userId },
    orderBy: { createdAt: "asc" },
  });
  return rows.map(toDevice);
}

export async function addDevice(
  store: TapeStore,
  identity: Identity,
  input: TPushSubscriptionRequest,
  userAgent: string | undefined,
  insecureLoopback = false,
): Promise<PushDevice> {
  const { userId } = person(identity);
  await checkPushEndpoint(input.endpoint, insecureLoopback);
  const existing = await store.prisma.pushSubscription.findUnique({
    where: { endpoint: input.endpoint },
    select: { id: true, userId: true },
  });
  if (existing && existing.userId !== userId) {
    throw conflict(
      "push_endpoint_taken",
      "This browser's push subscription is registered to another podwatch account (someone signed in here before). They can remove it from their Notifications page; or reset this site's notification permission in the browser and turn push on again.",
    );
  }
  const data = {
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    label: input.label || deviceLabel(userAgent),
  };
  if (existing) {
    // Only while it is still the caller's (never moved to them).
    const { count } = await store.prisma.pushSubscription.updateMany({
      where: { id: existing.id, userId },
      data,
    });
    if (count === 0) return addDevice(store, identity, input, userAgent, insecureLoopback);
    return toDevice(await store.prisma.pushSubscription.findUniqueOrThrow({ where: { id: existing.id } }));
  }
  if ((await store.prisma.pushSubscription.count({ where: { userId } })) >= MAX_DEVICES) {
    throw conflict(
      "too_many_devices",
      `You have push turned on on ${MAX_DEVICES} devices, the most podwatch keeps. Remove one you no longer use from the list first.`,
    );
  }
  let row;
  try {
    row = await store.prisma.pushSubscription.create({
      data: {
        id: randomUUID(),
        endpoint: input.endpoint,
        createdAt: new Date().toISOString(),
        userId,
        ...data,
      },
    });
  } catch (e) {
    // The same endpoint registered meanwhile (a second click, or someone else): decided as above.
    if ((e as { code?: string }).code === "P2002")
      return addDevice(store, identity, input, userAgent, insecureLoopback);
    throw e;
  }
  return toDevice(row);
}

/** Removes one of the caller's devices (another person's device id is "not found"). */
export async function removeDevice(store: TapeStore, identity: Identity, deviceId: string): Promise<void> {
  const { count } = await store.prisma.pushSubscription.deleteMany({
    where: { id: deviceId, userId: person(identity).userId },
  });
  if (count === 0) throw notFound("device");
}

const toDevice = (r: {
  id: string;
  label: string;
  createdAt: string;
  lastSuccessAt: string | null;
  endpoint: string;
}): PushDevice => ({
  id: r.id,
  label: r.label,
  createdAt: r.createdAt,
  lastSuccessAt: r.lastSuccessAt,
  endpoint: r.endpoint,
});

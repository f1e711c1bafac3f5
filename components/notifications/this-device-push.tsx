"use client";
// Push on this device: asks the browser's permission, registers the service
// worker, subscribes with the server's VAPID key and hands the subscription to
// the server (or takes it back). Shows what this device's state is.
import { useEffect, useState, useTransition } from "react";
import { addPushDevice, removePushDevice } from "@/server/web/server-actions";
import type { PushDevice } from "@/server/wire/notifications";
import { errorText, primaryButton, secondaryButton } from "../people/form-styles";

type State = "checking" | "unsupported" | "denied" | "off" | "on";

const keyBytes = (b64url: string) =>
  Uint8Array.from(atob(b64url.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

export async function registerWorker() {
  await navigator.serviceWorker.register("/sw.js", { scope: "/" });
  return navigator.serviceWorker.ready;
}

export function ThisDevicePush({
  publicKey,
  devices,
  onChange,
}: {
  publicKey: string;
  devices: PushDevice[];
  onChange: () => void;
}) {
  const [state, setState] = useState<State>("checking");
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  useEffect(() => {
    void (async () => {
      if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
        return setState("unsupported");
      if (Notification.permission === "denied") return setState("denied");
      const sub = await (await navigator.serviceWorker.getRegistration("/"))?.pushManager.getSubscription();
      setEndpoint(sub?.endpoint ?? null);
      setState(sub ? "on" : "off");
    })();
  }, []);
  // This browser's subscription must also be one the server knows (removed elsewhere = off).
  const known = endpoint !== null && devices.some((d) => d.endpoint === endpoint);
  const on = state === "on" && known;

  const turnOn = () =>
    start(async () => {
      setError(null);
      try {
        if ((await Notification.requestPermission()) !== "granted") return setState("denied");
        const reg = await registerWorker();
        const subscribe = () =>
          reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
        let sub = (await reg.pushManager.getSubscription()) ?? (await subscribe());
        const add = (s: PushSubscription) => {
          const json = s.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
          return addPushDevice({ endpoint: json.endpoint, keys: json.keys });
        };
        let r = await add(sub);
        if (!r.ok && r.code === "push_endpoint_taken") {
          // Someone else signed in on this browser turned push on before: a fresh subscription is this person's own.
          await sub.unsubscribe();
          sub = await subscribe();
          r = await add(sub);
        }
        if (!r.ok) return setError(r.error);
        setEndpoint(sub.endpoint);
        setState("on");
        onChange();
      } catch (e) {
        setError(`This browser could not subscribe: ${(e as Error).message}`);
      }
    });

  const turnOff = () =>
    start(async () => {
      setError(null);
      const reg = await navigator.serviceWorker.getRegistration("/");
      const sub = await reg?.pushManager.getSubscription();
      const device = devices.find((d) => d.endpoint === sub?.endpoint);
      if (device) {
        const r = await removePushDevice({ deviceId: device.id });
        if (!r.ok) return setError(r.error);
      }
      await sub?.unsubscribe();
      setEndpoint(null);
      setState("off");
      onChange();
    });

  return (
    <div
      className="space-y-2"
      data-testid="this-device-push"
      data-state={on ? "on" : state === "on" ? "off" : state}
    >
      <p className="text-sm">
        {state === "checking" && "Checking this browser…"}
        {state === "unsupported" &&
          "This browser cannot receive push notifications. On iPhone and iPad, add podwatch to the Home Screen first (Share → Add to Home Screen), then open it from there."}
        {state === "denied" &&
          "Notifications are blocked for podwatch in this browser's site settings. Allow them there, then reload this page."}
        {(state === "off" || (state === "on" && !known)) && "Push is off on this device."}
        {on && "Push is on on this device: new items in your inbox reach it even when podwatch is closed."}
      </p>
      {(state === "off" || state === "on") && (
        <button
          type="button"
          disabled={pending || !publicKey}
          onClick={on ? turnOff : turnOn}
          className={on ? secondaryButton : primaryButton}
        >
          {pending ? "Working…" : on ? "Turn off push on this device" : "Turn on push on this device"}
        </button>
      )}
      {error && (
        <p role="alert" className={errorText}>
          {error}
        </p>
      )}
    </div>
  );
}

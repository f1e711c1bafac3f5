"use client";
// Notifications: push on this device, the person's devices, what each pod may
// send them, quiet hours and mail. Each part saves on its own.
import { useState, useSyncExternalStore, useTransition } from "react";
import {
  readNotifications,
  removePushDevice,
  saveNotificationPreferences,
} from "@/server/web/server-actions";
import type { NotifyLevel, PreferencesResponse, PushDevice } from "@/server/wire/notifications";
import { RelativeTime } from "../shared/relative-time";
import { dangerButton, errorText, inputClass, primaryButton, secondaryButton } from "../people/form-styles";
import { ConfirmButton } from "../shared/confirm-button";
import { ThisDevicePush } from "./this-device-push";
import { LEVELS } from "./levels";

export type NotificationsData = {
  publicKey: string;
  devices: PushDevice[];
  preferences: PreferencesResponse;
};

const section =
  "space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900";
const heading = "text-sm font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400";

export function NotificationSettings({ initial }: { initial: NotificationsData }) {
  const [data, setData] = useState(initial);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const prefs = data.preferences;

  const reload = () =>
    start(async () => {
      const r = await readNotifications({});
      if (r.ok) setData(r.value);
    });
  const save = (input: Parameters<typeof saveNotificationPreferences>[0], what: string) =>
    start(async () => {
      setError(null);
      setSaved(null);
      const r = await saveNotificationPreferences(input);
      if (!r.ok) return setError(r.error);
      setData((d) => ({ ...d, preferences: r.value }));
      setSaved(what);
    });

  return (
    <div className="space-y-6">
      <section aria-labelledby="push-heading" className={section}>
        <h2 id="push-heading" className={heading}>
          This device
        </h2>
        <ThisDevicePush publicKey={data.publicKey} devices={data.devices} onChange={reload} />
      </section>

      <section aria-labelledby="devices-heading" className={section}>
        <h2 id="devices-heading" className={heading}>
          Your devices
        </h2>
        {data.devices.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">No device receives push yet.</p>
        ) : (
          <ul className="divide-y divide-zinc-200 dark:divide-zinc-800" data-testid="push-devices">
            {data.devices.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                <span className="min-w-0 flex-1 break-words font-medium">{d.label}</span>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">
                  added <RelativeTime iso={d.createdAt} />
                  {d.lastSuccessAt && (
                    <>
                      {" "}
                      · last reached <RelativeTime iso={d.lastSuccessAt} />
                    </>
                  )}
                </span>
                <ConfirmButton
                  question={`Remove ${d.label}? It gets no push until push is turned on there again.`}
                  confirmLabel="Yes, remove"
                  groupLabel={`Confirm removing ${d.label}`}
                  pending={pending}
                  buttonClass={secondaryButton}
                  confirmClass={dangerButton}
                  label={`Remove ${d.label}`}
                  onConfirm={() =>
                    start(async () => {
                      const r = await removePushDevice({ deviceId: d.id });
                      if (!r.ok) return setError(r.error);
                      setData((x) => ({ ...x, devices: x.devices.filter((y) => y.id !== d.id) }));
                    })
                  }
                >
                  Remove
                </ConfirmButton>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="pods-heading" className={section}>
        <h2 id="pods-heading" className={heading}>
          What each pod sends you
        </h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Decisions only: escalations, work and deliveries to approve, a blocked plan — not reminders,
          staleness alerts or notices. Nothing: the pod&apos;s items leave your inbox&apos;s default view
          (&quot;Show muted&quot; brings them back) and nothing is pushed or mailed. Only pods where you may
          answer send push or mail.
        </p>
        {prefs.pods.length === 0 ? (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">You are not on any pod yet.</p>
        ) : (
          <ul className="space-y-2">
            {prefs.pods.map((p) => (
              <li key={p.podId} id={`pod-${p.podId}`} className="flex flex-wrap items-center gap-2 text-sm">
                <span className="min-w-0 flex-1 break-words">
                  {p.podName}
                  {!p.mayAnswer && (
                    <span className="text-xs text-zinc-600 dark:text-zinc-400"> (viewer: inbox only)</span>
                  )}
                </span>
                <select
                  aria-label={`What ${p.podName} sends you`}
                  value={p.level}
                  disabled={pending}
                  onChange={(e) =>
                    save({ pods: [{ podId: p.podId, level: e.target.value as NotifyLevel }] }, p.podName)
                  }
                  className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-950"
                >
                  {LEVELS.map((l) => (
                    <option key={l.value} value={l.value}>
                      {l.label}
                    </option>
                  ))}
                </select>
              </li>
            ))}
          </ul>
        )}
      </section>

      <QuietHoursForm
        prefs={prefs}
        pending={pending}
        onSave={(q) => save({ quietHours: q }, "quiet hours")}
      />

      <section aria-labelledby="mail-heading" className={section}>
        <h2 id="mail-heading" className={heading}>
          Email
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={prefs.email}
            disabled={pending || !prefs.emailAvailable}
            onChange={(e) => save({ email: e.target.checked }, "email")}
          />
          Also mail me new inbox items (as the pods above allow; held through quiet hours)
        </label>
        {!prefs.emailAvailable && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            This server sends no mail (no PODWATCH_SMTP_URL).
          </p>
        )}
      </section>

      <div aria-live="polite" className="min-h-5 text-sm">
        {error && (
          <p role="alert" className={errorText}>
            {error}
          </p>
        )}
        {saved && !error && <p className="text-emerald-800 dark:text-emerald-400">Saved: {saved}.</p>}
      </div>
    </div>
  );
}

function QuietHoursForm({
  prefs,
  pending,
  onSave,
}: {
  prefs: PreferencesResponse;
  pending: boolean;
  onSave: (q: PreferencesResponse["quietHours"]) => void;
}) {
  const zone = prefs.quietHours?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <form
      aria-labelledby="quiet-heading"
      className={section}
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        onSave({
          start: String(f.get("start")),
          end: String(f.get("end")),
          timeZone: String(f.get("timeZone")),
        });
      }}
    >
      <h2 id="quiet-heading" className={heading}>
        Quiet hours
      </h2>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {prefs.quietHours
          ? `On: ${prefs.quietHours.start}–${prefs.quietHours.end} (${prefs.quietHours.timeZone}).`
          : "Off."}{" "}
        Push and mail wait until quiet hours end; then what is still open is sent.
      </p>
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="space-y-1 text-sm">
          <span className="font-medium">From</span>
          <input
            name="start"
            type="time"
            required
            defaultValue={prefs.quietHours?.start ?? "22:00"}
            className={inputClass}
          />
        </label>
        <label className="space-y-1 text-sm">
          <span className="font-medium">Until</span>
          <input
            name="end"
            type="time"
            required
            defaultValue={prefs.quietHours?.end ?? "07:00"}
            className={inputClass}
          />
        </label>
        <label className="space-y-1 text-sm">
          <span className="font-medium">Time zone</span>
          <input
            name="timeZone"
            required
            defaultValue={zone}
            list="time-zones"
            autoComplete="off"
            className={inputClass}
          />
        </label>
        <TimeZoneSuggestions />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" disabled={pending} className={primaryButton}>
          Save quiet hours
        </button>
        {prefs.quietHours && (
          <button type="button" disabled={pending} className={secondaryButton} onClick={() => onSave(null)}>
            Turn quiet hours off
          </button>
        )}
      </div>
    </form>
  );
}

/** The browser's own time zone names as suggestions; none in the server's render (its list may differ), so hydration matches. */
const NO_ZONES: string[] = [];
let zones: string[] | null = null;
const browserZones = () =>
  (zones ??=
    (Intl as typeof Intl & { supportedValuesOf?: (key: "timeZone") => string[] }).supportedValuesOf?.(
      "timeZone",
    ) ?? NO_ZONES);
const never = () => () => {};

function TimeZoneSuggestions() {
  const names = useSyncExternalStore(never, browserZones, () => NO_ZONES);
  return (
    <datalist id="time-zones">
      {names.map((z) => (
        <option key={z} value={z} />
      ))}
    </datalist>
  );
}

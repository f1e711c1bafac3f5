"use client";
// One webhook endpoint: its state (enabled, disabled and why, failing since),
// enable/disable, delete (asked first), and its delivery log.
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { WebhookEndpointInfo } from "@/server/wire/webhooks";
import { deleteWebhook, updateWebhook } from "@/server/web/server-actions";
import { RelativeTime } from "../shared/relative-time";
import { Badge } from "../shared/ui";
import { ConfirmButton } from "../shared/confirm-button";
import { secondaryButtonClass } from "../pod/form-styles";
import { WebhookDeliveries } from "./webhook-deliveries";

export function WebhookRow({ hook }: { hook: WebhookEndpointInfo }) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: ["webhooks", hook.podId] });
  const act = (call: () => Promise<{ ok: true } | { ok: false; error: string }>) =>
    start(async () => {
      setError(null);
      const r = await call();
      if (!r.ok) setError(r.error);
      await refresh();
    });
  const toggle = () =>
    act(() => updateWebhook({ podId: hook.podId, endpointId: hook.id, update: { enabled: !hook.enabled } }));
  const remove = () => act(() => deleteWebhook({ podId: hook.podId, endpointId: hook.id }));
  const logId = `webhook-log-${hook.id}`;

  return (
    <li
      className="rounded-md border border-zinc-200 p-3 text-sm dark:border-zinc-800"
      data-testid="webhook-row"
      data-webhook-id={hook.id}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="min-w-0 flex-1 basis-48 break-all font-mono text-xs" data-testid="webhook-row-url">
          {hook.url}
        </span>
        {hook.enabled ? (
          hook.failingSince ? (
            <Badge tone="amber">
              failing since <RelativeTime iso={hook.failingSince} />
            </Badge>
          ) : (
            <Badge tone="green">enabled</Badge>
          )
        ) : (
          <Badge tone="red" title={hook.disabledReason ?? undefined}>
            disabled
          </Badge>
        )}
        <Badge>{hook.format === "slack" ? "Slack" : "Standard"}</Badge>
      </div>
      {!hook.enabled && hook.disabledReason && (
        <p className="mt-1 text-xs text-red-700 dark:text-red-400" data-testid="webhook-disabled-reason">
          {hook.disabledReason}
        </p>
      )}
      <p className="mt-1 break-words text-xs text-zinc-500">
        Sends {hook.events.join(", ")} · added <RelativeTime iso={hook.createdAt} /> by {hook.createdBy}
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={secondaryButtonClass}
          aria-expanded={open}
          aria-controls={logId}
          onClick={() => setOpen((o) => !o)}
          data-testid="webhook-log-toggle"
        >
          {open ? "Hide deliveries" : "Deliveries"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={pending}
          onClick={toggle}
          aria-label={`${hook.enabled ? "Disable" : "Enable"} the webhook to ${hook.url}`}
          data-testid="webhook-toggle"
        >
          {hook.enabled ? "Disable" : "Enable"}
        </button>
        <ConfirmButton
          question="Delete this endpoint and its log?"
          confirmLabel="Yes, delete"
          groupLabel={`Confirm deleting the webhook to ${hook.url}`}
          pending={pending}
          onConfirm={remove}
          buttonClass={secondaryButtonClass}
          confirmClass="rounded-md bg-red-700 px-2 py-0.5 font-medium text-white disabled:opacity-50"
          label={`Delete the webhook to ${hook.url}`}
          testId="webhook-delete-confirm"
        >
          Delete
        </ConfirmButton>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {open && (
        <div id={logId} className="mt-3">
          <WebhookDeliveries hook={hook} />
        </div>
      )}
    </li>
  );
}

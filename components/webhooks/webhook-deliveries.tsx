"use client";
// An endpoint's delivery log, newest first (refreshed while open): status,
// attempts, last HTTP status, latency, error; "Send a test" and "Redeliver".
import { useState, useTransition } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { WebhookDeliveryInfo, WebhookEndpointInfo } from "@/server/wire/webhooks";
import { listWebhookDeliveries, redeliverWebhook, testWebhook } from "@/server/web/server-actions";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Skeleton } from "../shared/ui";
import { secondaryButtonClass } from "../pod/form-styles";

export function WebhookDeliveries({ hook }: { hook: WebhookEndpointInfo }) {
  const log = useInfiniteQuery({
    queryKey: ["webhook-deliveries", hook.id],
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam }) => {
      const r = await listWebhookDeliveries({
        podId: hook.podId,
        endpointId: hook.id,
        before: pageParam,
        limit: 25,
      });
      if (!r.ok) throw new Error(r.error);
      return r.value;
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: 2000,
  });
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const act = (call: () => Promise<{ ok: true } | { ok: false; error: string }>) =>
    start(async () => {
      setError(null);
      const r = await call();
      if (!r.ok) setError(r.error);
      await log.refetch();
    });
  const rows = log.data?.pages.flatMap((p) => p.deliveries) ?? [];

  return (
    <div className="space-y-2" data-testid="webhook-deliveries">
      <button
        type="button"
        className={secondaryButtonClass}
        disabled={pending}
        onClick={() => act(() => testWebhook({ podId: hook.podId, endpointId: hook.id }))}
        data-testid="webhook-send-test"
      >
        Send a test
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      {log.isPending ? (
        <Skeleton label="Loading deliveries" className="h-8 rounded" />
      ) : log.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          Could not load the deliveries: {log.error.message}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-zinc-500">Nothing sent yet. Send a test to check the receiver.</p>
      ) : (
        <ul
          className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
          aria-label="Deliveries"
        >
          {rows.map((d) => (
            <DeliveryRow
              key={d.id}
              d={d}
              pending={pending}
              onRedeliver={() =>
                act(() => redeliverWebhook({ podId: hook.podId, endpointId: hook.id, deliveryId: d.id }))
              }
            />
          ))}
        </ul>
      )}
      {log.hasNextPage && (
        <button
          type="button"
          className={secondaryButtonClass}
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          Older deliveries
        </button>
      )}
    </div>
  );
}

const tone = (s: WebhookDeliveryInfo["status"]) =>
  s === "delivered" ? "green" : s === "failed" ? "red" : "amber";

function DeliveryRow({
  d,
  pending,
  onRedeliver,
}: {
  d: WebhookDeliveryInfo;
  pending: boolean;
  onRedeliver: () => void;
}) {
  return (
    <li
      className="space-y-1 px-3 py-2 text-xs"
      data-testid="webhook-delivery"
      data-status={d.status}
      data-type={d.type}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone={tone(d.status)}>{d.status}</Badge>
        <span className="font-mono">{d.type}</span>
        <span className="text-zinc-500">
          {d.attempts} attempt{d.attempts === 1 ? "" : "s"}
        </span>
        {d.lastStatus !== null && <span className="text-zinc-500">HTTP {d.lastStatus}</span>}
        {d.lastLatencyMs !== null && <span className="text-zinc-500">{d.lastLatencyMs} ms</span>}
        <span className="text-zinc-500">
          {d.lastAttemptAt ? (
            <>
              last <RelativeTime iso={d.lastAttemptAt} />
            </>
          ) : (
            <>
              queued <RelativeTime iso={d.createdAt} />
            </>
          )}
        </span>
        {d.status === "pending" && d.nextAttemptAt && d.attempts > 0 && (
          <span className="text-zinc-500">
            next try <RelativeTime iso={d.nextAttemptAt} />
          </span>
        )}
        <button
          type="button"
          className={`${secondaryButtonClass} ml-auto`}
          disabled={pending || (d.status === "pending" && d.attempts === 0)}
          onClick={onRedeliver}
          aria-label={`Redeliver ${d.type} ${d.messageId}`}
          data-testid="webhook-redeliver"
        >
          Redeliver
        </button>
      </div>
      {d.lastError && <p className="break-words text-red-700 dark:text-red-400">{d.lastError}</p>}
      <p className="break-all font-mono text-zinc-500">webhook-id {d.messageId}</p>
    </li>
  );
}

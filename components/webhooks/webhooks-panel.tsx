"use client";
// A pod's outbound webhooks (pod admins): add an endpoint (its signing secret is
// shown once), see each one's state and delivery log, send a test, redeliver,
// enable or disable, delete.
import { useState, useTransition } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { WebhookCreated, WebhookFormat, WebhookTopic } from "@/server/wire/webhooks";
import { createWebhook, listWebhooks } from "@/server/web/server-actions";
import { Section, Skeleton } from "../shared/ui";
import { buttonClass, inputClass, secondaryButtonClass } from "../pod/form-styles";
import { EVENT_TOPICS, FORMATS, INBOX_TOPICS } from "./webhook-topics";
import { WebhookRow } from "./webhook-row";

export const webhooksKey = (podId: string) => ["webhooks", podId];

export function WebhooksPanel({ podId }: { podId: string }) {
  const qc = useQueryClient();
  const hooks = useQuery({
    queryKey: webhooksKey(podId),
    queryFn: async () => {
      const r = await listWebhooks({ podId });
      if (!r.ok) throw new Error(r.error);
      return r.value.webhooks;
    },
    refetchInterval: 10_000,
  });
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<WebhookFormat>("standard");
  const [topics, setTopics] = useState<Set<WebhookTopic>>(new Set(["inbox.opened", "inbox.closed"]));
  const toggle = (t: WebhookTopic) =>
    setTopics((s) => (s.has(t) ? (s.delete(t), new Set(s)) : new Set(s.add(t))));

  const add = () =>
    start(async () => {
      setError(null);
      if (!url.trim()) return setError("Enter the URL that receives the webhooks.");
      if (!topics.size) return setError("Choose at least one thing to send.");
      const r = await createWebhook({ podId, webhook: { url: url.trim(), format, events: [...topics] } });
      if (!r.ok) return setError(r.error);
      setCreated(r.value);
      setUrl("");
      await qc.invalidateQueries({ queryKey: webhooksKey(podId) });
    });

  return (
    <div id="webhooks">
      <Section title="Webhooks">
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          podwatch POSTs what happens in this pod to your URL, signed (Standard Webhooks), or as Slack
          messages. Failed deliveries are retried for a day.
        </p>
        <form
          className="space-y-3"
          onSubmit={(e) => (e.preventDefault(), add())}
          aria-label="Add a webhook endpoint"
        >
          <div className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-0 flex-1 basis-64 flex-col text-xs text-zinc-600 dark:text-zinc-400">
              URL
              <input
                className={inputClass}
                type="url"
                inputMode="url"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
                placeholder="https://example.com/podwatch"
                maxLength={2048}
                data-testid="webhook-url"
              />
            </label>
            <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
              Format
              <select
                className={inputClass}
                value={format}
                onChange={(e) => setFormat(e.target.value as WebhookFormat)}
                data-testid="webhook-format"
              >
                {FORMATS.map((f) => (
                  <option key={f.value} value={f.value}>
                    {f.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <fieldset className="space-y-1">
            <legend className="text-xs text-zinc-600 dark:text-zinc-400">Send</legend>
            {INBOX_TOPICS.map((t) => (
              <label key={t.value} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={topics.has(t.value)}
                  onChange={() => toggle(t.value)}
                  data-testid={`webhook-topic-${t.value}`}
                />
                {t.label} <code className="text-xs text-zinc-500">{t.value}</code>
              </label>
            ))}
            <details className="text-sm">
              <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">
                Tape events ({EVENT_TOPICS.filter((t) => topics.has(t)).length} chosen)
              </summary>
              <div className="mt-1 grid grid-cols-1 gap-x-3 sm:grid-cols-2 lg:grid-cols-3">
                {EVENT_TOPICS.map((t) => (
                  <label key={t} className="flex min-w-0 items-center gap-2 break-all font-mono text-xs">
                    <input
                      type="checkbox"
                      checked={topics.has(t)}
                      onChange={() => toggle(t)}
                      data-testid={`webhook-topic-${t}`}
                    />
                    {t}
                  </label>
                ))}
              </div>
            </details>
          </fieldset>
          <button className={buttonClass} disabled={pending} data-testid="add-webhook">
            {pending ? "Adding…" : "Add endpoint"}
          </button>
        </form>
        {error && (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400" data-testid="webhook-error">
            {error}
          </p>
        )}
        {created && <CreatedSecret hook={created} onDone={() => setCreated(null)} />}
        <div className="mt-4">
          {hooks.isPending ? (
            <Skeleton label="Loading webhooks" className="h-10 rounded" />
          ) : hooks.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              Could not load the webhooks: {hooks.error.message}
            </p>
          ) : hooks.data.length === 0 ? (
            <p className="text-sm text-zinc-500">No webhooks yet.</p>
          ) : (
            <ul className="space-y-2" data-testid="webhooks">
              {hooks.data.map((h) => (
                <WebhookRow key={h.id} hook={h} />
              ))}
            </ul>
          )}
        </div>
      </Section>
    </div>
  );
}

function CreatedSecret({ hook, onDone }: { hook: WebhookCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="mt-3 space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
      data-testid="webhook-created"
    >
      <p className="font-medium text-emerald-900 dark:text-emerald-200">
        {hook.format === "slack"
          ? "Added. Slack does not check signatures; the secret is shown only this once."
          : "Copy the signing secret now: it is shown only this once. Your receiver verifies each delivery with it."}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
          value={hook.secret}
          aria-label="The new webhook's signing secret"
          data-testid="webhook-secret"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() =>
            void navigator.clipboard?.writeText(hook.secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          data-testid="copy-webhook-secret"
        >
          {copied ? "Copied" : "Copy secret"}
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={onDone}
          data-testid="webhook-secret-done"
        >
          Done
        </button>
      </div>
    </div>
  );
}

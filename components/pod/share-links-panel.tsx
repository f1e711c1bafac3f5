"use client";
// Read-only links to watch this pod without an account (pod admins): create
// with an expiry, copy the link (shown once: only its hash is stored), revoke (after a question).
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { ShareLinkCreated, ShareLinkInfo } from "@/server/wire/access";
import { createShareLink, revokeShareLink } from "@/server/web/server-actions";
import { RelativeTime } from "../shared/relative-time";
import { Badge, Section, Skeleton } from "../shared/ui";
import { ConfirmButton } from "../shared/confirm-button";
import { SHARE_LINK_NEVER as NEVER, shareLinksKey, useShareLinks } from "./use-share-links";
import { buttonClass, dangerButtonClass, inputClass, secondaryButtonClass } from "./form-styles";

const EXPIRIES = [
  { value: "24", label: "in 1 day" },
  { value: "168", label: "in 7 days" },
  { value: "720", label: "in 30 days" },
  { value: "never", label: "never" },
  { value: "date", label: "on a date…" },
] as const;

export function ShareLinksPanel({ podId }: { podId: string }) {
  const qc = useQueryClient();
  const key = shareLinksKey(podId);
  const links = useShareLinks(podId);
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<ShareLinkCreated | null>(null);
  const [label, setLabel] = useState("");
  const [expiry, setExpiry] = useState<(typeof EXPIRIES)[number]["value"]>("168");
  const [date, setDate] = useState("");

  const create = () =>
    start(async () => {
      setError(null);
      if (expiry === "date" && !date) return setError("Pick the day the link stops working.");
      const link =
        expiry === "never"
          ? { expiresInHours: null }
          : expiry === "date"
            ? { expiresAt: new Date(`${date}T23:59:59`).toISOString() }
            : { expiresInHours: Number(expiry) };
      const r = await createShareLink({ podId, link: { ...link, label: label.trim() || undefined } });
      if (!r.ok) return setError(r.error);
      setCreated(r.value);
      setLabel("");
      await qc.invalidateQueries({ queryKey: key });
    });
  const revoke = (linkId: string) =>
    start(async () => {
      setError(null);
      const r = await revokeShareLink({ podId, linkId });
      if (!r.ok) setError(r.error);
      await qc.invalidateQueries({ queryKey: key });
    });

  return (
    <div id="sharing">
      <Section title="Sharing">
        <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
          A share link lets anyone who has it watch this pod, read-only, without an account.
        </p>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => (e.preventDefault(), create())}
          aria-label="Create a share link"
        >
          <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
            Label
            <input
              className={inputClass}
              value={label}
              onChange={(e) => setLabel(e.target.value)}
              placeholder="e.g. for the client"
              maxLength={200}
              data-testid="share-link-label"
            />
          </label>
          <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
            Expires
            <select
              className={inputClass}
              value={expiry}
              onChange={(e) => setExpiry(e.target.value as typeof expiry)}
              data-testid="share-link-expiry"
            >
              {EXPIRIES.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          </label>
          {expiry === "date" && (
            <label className="flex flex-col text-xs text-zinc-600 dark:text-zinc-400">
              Last day
              <input
                type="date"
                className={inputClass}
                value={date}
                min={new Date().toISOString().slice(0, 10)}
                onChange={(e) => setDate(e.target.value)}
              />
            </label>
          )}
          <button className={buttonClass} disabled={pending} data-testid="create-share-link">
            Create share link
          </button>
        </form>
        {error && (
          <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        {created && <CreatedLink link={created} onDone={() => setCreated(null)} />}
        <div className="mt-4">
          {links.isPending ? (
            <Skeleton label="Loading share links" className="h-10 rounded" />
          ) : links.isError ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-400">
              Could not load the share links: {links.error.message}
            </p>
          ) : links.data.length === 0 ? (
            <p className="text-sm text-zinc-500">No share links yet.</p>
          ) : (
            <ul
              className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
              data-testid="share-links"
            >
              {links.data.map((l) => (
                <LinkRow
                  key={l.id}
                  link={l}
                  now={links.dataUpdatedAt}
                  onRevoke={() => revoke(l.id)}
                  pending={pending}
                />
              ))}
            </ul>
          )}
        </div>
      </Section>
    </div>
  );
}

function CreatedLink({ link, onDone }: { link: ShareLinkCreated; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      className="mt-3 space-y-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-900 dark:bg-emerald-950/40"
      data-testid="share-link-created"
    >
      <p className="font-medium text-emerald-900 dark:text-emerald-200">
        Copy the link now: it is shown only this once.
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input
          readOnly
          className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
          value={link.url}
          aria-label="The new share link"
          data-testid="share-link-url"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() =>
            void navigator.clipboard?.writeText(link.url).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
          data-testid="copy-share-link"
        >
          {copied ? "Copied" : "Copy link"}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

/** `now`: when the list was read (expiry is judged against it, so a render stays pure). */
function LinkRow({
  link,
  now,
  onRevoke,
  pending,
}: {
  link: ShareLinkInfo;
  now: number;
  onRevoke: () => void;
  pending: boolean;
}) {
  const expired = link.expiresAt !== NEVER && Date.parse(link.expiresAt) <= now;
  const name = link.label ?? `the link created ${link.createdAt.slice(0, 16).replace("T", " ")}`;
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
      data-testid="share-link-row"
    >
      <span className="min-w-0 flex-1 break-words font-medium">
        {link.label ?? <span className="text-zinc-500">(no label)</span>}
      </span>
      <span className="text-xs text-zinc-500">
        created <RelativeTime iso={link.createdAt} /> by {link.createdBy}
      </span>
      <span className="text-xs text-zinc-500">
        {link.expiresAt === NEVER ? (
          "never expires"
        ) : (
          <>
            expire{expired ? "d" : "s"} <RelativeTime iso={link.expiresAt} />
          </>
        )}
      </span>
      <span className="text-xs text-zinc-500">
        {link.lastUsedAt ? (
          <>
            last used <RelativeTime iso={link.lastUsedAt} />
          </>
        ) : (
          "not used yet"
        )}
      </span>
      {link.revokedAt ? (
        <Badge tone="red">revoked</Badge>
      ) : expired ? (
        <Badge tone="amber">expired</Badge>
      ) : (
        <ConfirmButton
          question={`Revoke ${name}? Whoever has it can no longer watch this pod.`}
          confirmLabel="Yes, revoke"
          groupLabel={`Confirm revoking ${name}`}
          label={`Revoke ${name}`}
          pending={pending}
          onConfirm={onRevoke}
          buttonClass={secondaryButtonClass}
          confirmClass={dangerButtonClass}
        >
          Revoke
        </ConfirmButton>
      )}
    </li>
  );
}

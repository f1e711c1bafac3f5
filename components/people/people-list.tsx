"use client";
// The people who can sign in and the invites still pending; a site admin resets
// passwords (a one-time link) and allows people to create pods.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { resetPassword, setCanCreatePods } from "@/server/web/server-actions";
import type { InviteCreated, PeopleResponse, PersonInfo } from "@/server/wire/access";
import { Badge, Empty } from "../shared/ui";
import { errorText, secondaryButton } from "./form-styles";
import { OneTimeLink } from "./one-time-link";

export function PeopleList({ people }: { people: PeopleResponse }) {
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<InviteCreated | null>(null);
  if (people.users.length === 0 && people.pendingInvites.length === 0)
    return <Empty>Nobody yet: invite someone above.</Empty>;
  return (
    <div className="space-y-3">
      {error && (
        <p role="alert" className={errorText}>
          {error}
        </p>
      )}
      {link && (
        <OneTimeLink
          url={link.url}
          email={link.email}
          kind="reset"
          note={link.note}
          onDone={() => setLink(null)}
        />
      )}
      <ul
        className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
        aria-label="People"
      >
        {people.users.map((u) => (
          <PersonRow key={u.id} person={u} onError={setError} onLink={setLink} />
        ))}
        {people.pendingInvites.map((i) => (
          <li
            key={i.id}
            data-testid="pending-invite"
            className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2 text-sm"
          >
            <span className="min-w-0 font-medium wrap-anywhere">{i.name ?? i.email}</span>
            {i.name && (
              <span className="min-w-0 text-zinc-600 wrap-anywhere dark:text-zinc-400">{i.email}</span>
            )}
            <Badge tone="amber">invited, pending until {i.expiresAt.slice(0, 10)}</Badge>
          </li>
        ))}
      </ul>
    </div>
  );
}

function PersonRow({
  person,
  onError,
  onLink,
}: {
  person: PersonInfo;
  onError: (e: string | null) => void;
  onLink: (l: InviteCreated) => void;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const act = (fn: () => Promise<void>) =>
    start(async () => {
      onError(null);
      await fn();
      router.refresh();
    });
  const reset = () =>
    act(async () => {
      const r = await resetPassword({ userId: person.id });
      if (r.ok) onLink(r.value);
      else onError(`${person.email}: ${r.error}`);
    });
  const toggleCreate = (canCreatePods: boolean) =>
    act(async () => {
      const r = await setCanCreatePods({ userId: person.id, canCreatePods });
      if (!r.ok) onError(`${person.email}: ${r.error}`);
    });
  return (
    <li data-testid="person" className="flex flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2 text-sm">
      {/* A basis of its own: with none, the controls beside it squeeze it to a letter per line on a phone. */}
      <div className="min-w-0 flex-1 basis-56">
        <div className="font-medium wrap-anywhere">{person.name}</div>
        <div className="text-zinc-600 wrap-anywhere dark:text-zinc-400">{person.email}</div>
      </div>
      {person.isAdmin && <Badge tone="violet">site admin</Badge>}
      {person.mustChangePassword && <Badge tone="amber">printed password</Badge>}
      <label className="flex items-center gap-1.5 text-xs">
        <input
          type="checkbox"
          checked={person.isAdmin || person.canCreatePods}
          disabled={person.isAdmin || pending}
          onChange={(e) => toggleCreate(e.currentTarget.checked)}
          aria-label={`${person.email} may create pods`}
        />
        may create pods
      </label>
      <button
        type="button"
        onClick={reset}
        disabled={pending}
        className={secondaryButton}
        aria-label={`Reset password of ${person.email}`}
      >
        Reset password
      </button>
    </li>
  );
}

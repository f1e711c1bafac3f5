"use client";
// Site admins invite a person: email (and a name, optional) → a one-time link, shown once.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { invitePerson } from "@/server/web/server-actions";
import type { InviteCreated } from "@/server/wire/access";
import { errorText, inputClass, primaryButton } from "./form-styles";
import { OneTimeLink } from "./one-time-link";

export function InviteForm({ initialEmail = "" }: { initialEmail?: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<InviteCreated | null>(null);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    start(async () => {
      setError(null);
      const r = await invitePerson({
        email: String(data.get("email") ?? ""),
        name: String(data.get("name") ?? ""),
      });
      if (!r.ok) return setError(r.error);
      setCreated(r.value);
      form.reset();
      router.refresh();
    });
  }

  return (
    <div className="space-y-3">
      <form
        onSubmit={submit}
        aria-label="Invite person"
        className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      >
        <label className="block space-y-1 text-sm">
          <span className="font-medium">Email</span>
          <input
            name="email"
            type="email"
            required
            defaultValue={initialEmail}
            autoComplete="off"
            className={inputClass}
            aria-describedby={error ? "invite-error" : undefined}
          />
        </label>
        <label className="block space-y-1 text-sm">
          <span className="font-medium">
            Name <span className="font-normal text-zinc-500">(optional)</span>
          </span>
          <input name="name" type="text" autoComplete="off" className={inputClass} />
        </label>
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Inviting…" : "Invite person"}
        </button>
      </form>
      {error && (
        <p id="invite-error" role="alert" className={errorText}>
          {error}
        </p>
      )}
      {created && (
        <OneTimeLink
          url={created.url}
          email={created.email}
          kind="invite"
          note={created.note}
          onDone={() => setCreated(null)}
        />
      )}
    </div>
  );
}

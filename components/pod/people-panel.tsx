"use client";
// The people of the pod, each once with their access. Pod admins add a person who has an account
// (member.joined), change their access (access.granted) or remove them (access.revoked, after a
// question). Every change is an event on the tape; the server refuses what breaks a rule (the pod's
// last admin, an unknown email) and the form says why.
import { useState } from "react";
import Link from "next/link";
import { ACCESS_LEVELS, type Access } from "@/server/wire/vocabulary";
import type { PodStateView } from "@/server/wire/views";
import { addPersonToPod, removePersonFromPod, setPersonAccess } from "@/server/web/server-actions";
import { useAction } from "../shared/use-action";
import { ConfirmButton } from "../shared/confirm-button";
import { Badge, Empty, Section } from "../shared/ui";
import { dangerButtonClass } from "./form-styles";

const field =
  "rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";
const button =
  "rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-xs font-medium hover:bg-zinc-50 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800";

export function PeoplePanel({
  podId,
  state,
  canAdmin,
}: {
  podId: string;
  state: PodStateView;
  canAdmin: boolean;
}) {
  const people = state.members.filter((m) => m.kind === "human");
  const { run, pending, error } = useAction(podId);
  const [inviteEmail, setInviteEmail] = useState<string | null>(null);

  function add(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const email = String(data.get("email") ?? "").trim();
    setInviteEmail(null);
    run(
      async () => {
        const r = await addPersonToPod({ podId, email, access: data.get("access") as Access });
        if (!r.ok && r.code === "invite_first") setInviteEmail(email);
        return r;
      },
      () => form.reset(),
    );
  }

  return (
    <Section title="People">
      <div className="space-y-3" data-testid="people-panel">
        {canAdmin && (
          <form onSubmit={add} aria-label="Add a person" className="flex flex-wrap items-end gap-2">
            <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium">
              Email
              <input
                name="email"
                type="email"
                required
                placeholder="ana@example.com"
                autoComplete="off"
                className={`${field} min-w-0`}
              />
            </label>
            <label className="flex flex-col gap-1 text-xs font-medium">
              Access
              <select name="access" defaultValue="viewer" className={field}>
                {ACCESS_LEVELS.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={pending} className={button}>
              Add person
            </button>
          </form>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {inviteEmail ? (
              <>
                No account uses {inviteEmail} yet:{" "}
                <Link
                  href={`/people?email=${encodeURIComponent(inviteEmail)}`}
                  className="font-medium underline"
                >
                  invite them first
                </Link>
                , then add them here.
              </>
            ) : (
              `${error.charAt(0).toUpperCase() + error.slice(1)}.`
            )}
          </p>
        )}
        {people.length === 0 ? (
          <Empty>No people in this pod yet{canAdmin ? ": add someone who has an account" : ""}.</Empty>
        ) : (
          <ul
            className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
            aria-label="People in this pod"
          >
            {people.map((p) => (
              <li
                key={p.memberId}
                data-testid="pod-person"
                data-member-id={p.memberId}
                className="flex flex-wrap items-center gap-2 px-3 py-2 text-sm"
              >
                <div className="min-w-0 flex-1">
                  <div className="font-medium">{p.displayName}</div>
                  <div className="break-all text-xs text-zinc-600 dark:text-zinc-400">{p.memberId}</div>
                </div>
                {p.roles.map((r) => (
                  <Badge key={r} tone="sky">
                    {r.replace("_", " ")}
                  </Badge>
                ))}
                {!canAdmin ? (
                  <Badge tone="amber">{p.access ?? "viewer"}</Badge>
                ) : (
                  <>
                    <select
                      aria-label={`Access of ${p.memberId}`}
                      value={p.access ?? "viewer"}
                      disabled={pending}
                      onChange={(e) => {
                        const access = e.currentTarget.value as Access;
                        run(() => setPersonAccess({ podId, memberId: p.memberId, access }));
                      }}
                      className={field}
                    >
                      {ACCESS_LEVELS.map((a) => (
                        <option key={a} value={a}>
                          {a}
                        </option>
                      ))}
                    </select>
                    <ConfirmButton
                      question={`Remove ${p.displayName}? They will no longer see this pod.`}
                      confirmLabel="Yes, remove"
                      groupLabel={`Confirm removing ${p.memberId}`}
                      label={`Remove ${p.memberId}`}
                      pending={pending}
                      onConfirm={() => run(() => removePersonFromPod({ podId, memberId: p.memberId }))}
                      buttonClass={button}
                      confirmClass={dangerButtonClass}
                    >
                      Remove
                    </ConfirmButton>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}

"use client";
// Pod admins add an agent: id, display name, protocol roles. The member and its
// first token are created in one step; the token comes back only to this form.
import { useState } from "react";
import { ROLES, type Role } from "@/server/wire/vocabulary";
import { addAgent } from "@/server/web/server-actions";
import { useTokenAction } from "./use-agent-tokens";
import type { RevealedToken } from "./token-snippets";

const field =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950";

export function AddAgentForm({
  podId,
  publicUrl,
  onAdded,
}: {
  podId: string;
  publicUrl: string;
  onAdded: (t: RevealedToken) => void;
}) {
  const { run, pending, error } = useTokenAction(podId);
  const [memberId, setMemberId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [roles, setRoles] = useState<Role[]>([]);
  const toggle = (r: Role) => setRoles((rs) => (rs.includes(r) ? rs.filter((x) => x !== r) : [...rs, r]));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    run(
      () => addAgent({ podId, memberId: memberId.trim(), displayName, roles }),
      (v) => {
        onAdded({
          publicUrl,
          podId,
          token: v.token,
          memberId: v.member.memberId,
          heading: `${v.member.displayName} added: its first token`,
        });
        setMemberId("");
        setDisplayName("");
        setRoles([]);
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Add agent"
      data-testid="add-agent-form"
      className="space-y-2 rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p className="text-sm font-medium">Add agent</p>
      <div className="flex flex-wrap gap-2">
        <label className="flex min-w-40 flex-1 flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
          Agent id
          <input
            required
            value={memberId}
            onChange={(e) => setMemberId(e.target.value)}
            placeholder="implementer-1"
            autoComplete="off"
            spellCheck={false}
            className={`${field} font-mono`}
          />
        </label>
        <label className="flex min-w-40 flex-1 flex-col gap-1 text-xs text-zinc-600 dark:text-zinc-400">
          Display name
          <input
            required
            value={displayName}
            onChange={(e) => setDisplayName(e.target.value)}
            placeholder="Implementer"
            className={field}
          />
        </label>
      </div>
      <fieldset className="space-y-1">
        <legend className="text-xs text-zinc-600 dark:text-zinc-400">Protocol roles</legend>
        <div className="flex flex-wrap gap-x-3 gap-y-1">
          {ROLES.map((r) => (
            <label key={r} className="flex items-center gap-1 text-sm">
              <input type="checkbox" checked={roles.includes(r)} onChange={() => toggle(r)} />
              {r.replace("_", " ")}
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <button
        disabled={pending || !memberId.trim() || !displayName.trim()}
        className="rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900"
      >
        {pending ? "Adding…" : "Add agent and create its token"}
      </button>
    </form>
  );
}

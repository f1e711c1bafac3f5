"use client";
// The invite (or reset) link's form: a password, twice; then sign in with it.
import { useState, useTransition } from "react";
import { acceptInvite } from "@/server/web/server-actions";
import { errorText, inputClass, primaryButton } from "./form-styles";

export function AcceptInviteForm({
  token,
  email,
  kind,
}: {
  token: string;
  email: string;
  kind: "invite" | "reset";
}) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const password = String(data.get("password") ?? "");
    const confirm = String(data.get("confirm") ?? "");
    if (password !== confirm) return setError("The two passwords differ.");
    if (password.length < 12) return setError("Use at least 12 characters.");
    start(async () => {
      setError(null);
      const r = await acceptInvite({ token, password, confirm });
      if (!r.ok) return setError(r.error.charAt(0).toUpperCase() + r.error.slice(1) + ".");
      const signIn = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      }).catch(() => null);
      window.location.href = signIn?.ok ? "/" : "/sign-in";
    });
  }

  return (
    <form
      onSubmit={submit}
      aria-label={kind === "invite" ? "Choose your password" : "Choose a new password"}
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <div className="space-y-1">
        <label className="block space-y-1 text-sm">
          <span className="font-medium">New password</span>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            required
            autoFocus
            className={inputClass}
            aria-describedby="password-hint"
          />
        </label>
        <p id="password-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
          At least 12 characters.
        </p>
      </div>
      <label className="block space-y-1 text-sm">
        <span className="font-medium">Repeat the password</span>
        <input name="confirm" type="password" autoComplete="new-password" required className={inputClass} />
      </label>
      {error && (
        <p role="alert" className={errorText}>
          {error}
        </p>
      )}
      <button type="submit" disabled={pending} className={`w-full ${primaryButton}`}>
        {pending ? "Saving…" : kind === "invite" ? "Create my account" : "Set my new password"}
      </button>
    </form>
  );
}

"use client";
// Change one's own password: the current one, the new one twice. Other sessions end.
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { changePassword } from "@/server/web/server-actions";
import { errorText, inputClass, primaryButton } from "./form-styles";

export function ChangePasswordForm({ email }: { email: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  function submit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const input = {
      currentPassword: String(data.get("current") ?? ""),
      newPassword: String(data.get("new") ?? ""),
      confirm: String(data.get("confirm") ?? ""),
    };
    if (input.newPassword !== input.confirm) return setError("The two new passwords differ.");
    if (input.newPassword.length < 12) return setError("Use at least 12 characters for the new password.");
    start(async () => {
      setError(null);
      setDone(false);
      const r = await changePassword(input);
      if (!r.ok) return setError(r.error.charAt(0).toUpperCase() + r.error.slice(1) + ".");
      form.reset();
      setDone(true);
      router.refresh();
    });
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Change password"
      className="space-y-4 rounded-lg border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <label className="block space-y-1 text-sm">
        <span className="font-medium">Current password</span>
        <input
          name="current"
          type="password"
          autoComplete="current-password"
          required
          className={inputClass}
        />
      </label>
      <div className="space-y-1">
        <label className="block space-y-1 text-sm">
          <span className="font-medium">New password</span>
          <input
            name="new"
            type="password"
            autoComplete="new-password"
            required
            className={inputClass}
            aria-describedby="new-password-hint"
          />
        </label>
        <p id="new-password-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
          At least 12 characters. Your other sessions are signed out.
        </p>
      </div>
      <label className="block space-y-1 text-sm">
        <span className="font-medium">Repeat the new password</span>
        <input name="confirm" type="password" autoComplete="new-password" required className={inputClass} />
      </label>
      {error && (
        <p role="alert" className={errorText}>
          {error}
        </p>
      )}
      <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
        {done ? "Your password is changed." : ""}
      </p>
      <button type="submit" disabled={pending} className={`w-full ${primaryButton}`}>
        {pending ? "Saving…" : "Change password"}
      </button>
    </form>
  );
}

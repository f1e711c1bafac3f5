"use client";
// "New pod": name, mode, the scope and its success criteria (agreed on the
// tape), the checkpoint cadence. The creator joins as the pod's admin and lands
// on its setup view. The server checks everything again (POST /api/v1/pods's rules).
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { createPod } from "@/server/web/server-actions";
import { buttonClass, inputClass, secondaryButtonClass } from "./form-styles";

const field = "flex flex-col gap-1 text-sm";

export function NewPodButton() {
  const [open, setOpen] = useState(false);
  return open ? (
    <NewPodForm onCancel={() => setOpen(false)} />
  ) : (
    <button className={buttonClass} onClick={() => setOpen(true)} data-testid="new-pod">
      New pod
    </button>
  );
}

function NewPodForm({ onCancel }: { onCancel: () => void }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [mode, setMode] = useState<"collaboration" | "contracting">("collaboration");
  const [scope, setScope] = useState("");
  const [criteria, setCriteria] = useState("");
  const [cadence, setCadence] = useState("30");

  const submit = () =>
    start(async () => {
      setError(null);
      const successCriteria = criteria
        .split("\n")
        .map((l) => l.trim())
        .filter(Boolean);
      const cadenceMinutes = Number(cadence);
      if (!name.trim()) return setError("Give the pod a name.");
      if (scope.trim() && !successCriteria.length)
        return setError("Name at least one success criterion (one per line), or leave the scope for later.");
      if (!scope.trim() && successCriteria.length) return setError("Success criteria need a scope.");
      if (!Number.isInteger(cadenceMinutes) || cadenceMinutes < 5 || cadenceMinutes > 240)
        return setError("Checkpoints come every 5 to 240 minutes (whole minutes).");
      const agreed = scope.trim() ? { scope: scope.trim(), successCriteria, cadenceMinutes } : {};
      const r = await createPod({ name: name.trim(), mode, ...agreed });
      if (!r.ok) return setError(r.error);
      await qc.invalidateQueries({ queryKey: ["pods"] });
      router.push(`/pods/${r.value.id}?tab=setup`);
    });

  return (
    <form
      aria-label="New pod"
      className="w-full space-y-3 rounded-lg border border-zinc-200 bg-white p-4 dark:border-zinc-800 dark:bg-zinc-900"
      onSubmit={(e) => (e.preventDefault(), submit())}
      onKeyDown={(e) => e.key === "Escape" && onCancel()}
      data-testid="new-pod-form"
    >
      <h2 className="font-semibold">New pod</h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <label className={field}>
          Name
          <input
            className={inputClass}
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={120}
            required
            autoFocus
            data-testid="new-pod-name"
          />
        </label>
        <label className={field}>
          Mode
          <select
            className={inputClass}
            value={mode}
            onChange={(e) => setMode(e.target.value as typeof mode)}
            data-testid="new-pod-mode"
          >
            <option value="collaboration">collaboration</option>
            <option value="contracting">contracting</option>
          </select>
        </label>
      </div>
      <label className={field}>
        Scope
        <textarea
          className={`${inputClass} min-h-20`}
          value={scope}
          onChange={(e) => setScope(e.target.value)}
          maxLength={10000}
          placeholder="What the pod is for"
          data-testid="new-pod-scope"
        />
      </label>
      <label className={field}>
        <span>
          Success criteria <span className="text-xs text-zinc-500">(one per line)</span>
        </span>
        <textarea
          className={`${inputClass} min-h-20`}
          value={criteria}
          onChange={(e) => setCriteria(e.target.value)}
          placeholder={"All tests pass\nDocs updated"}
          data-testid="new-pod-criteria"
        />
      </label>
      <label className={`${field} max-w-56`}>
        <span>
          Checkpoint every <span className="text-xs text-zinc-500">(minutes, 5–240)</span>
        </span>
        <input
          type="number"
          inputMode="numeric"
          min={5}
          max={240}
          step={1}
          className={inputClass}
          value={cadence}
          onChange={(e) => setCadence(e.target.value)}
          data-testid="new-pod-cadence"
        />
      </label>
      <p className="text-xs text-zinc-500">
        With a scope, it is agreed on the pod&apos;s tape at once. You join the pod as its admin.
      </p>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400" data-testid="new-pod-error">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button className={buttonClass} disabled={pending} data-testid="create-pod">
          {pending ? "Creating…" : "Create pod"}
        </button>
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

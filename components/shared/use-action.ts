"use client";
// Runs a server action, shows its refusal, and refreshes what it may have changed:
// the pod's state and the cross-pod inbox (any action can settle or raise an item).
import { useState, useTransition } from "react";
import { useQueryClient } from "@tanstack/react-query";

type Result = { ok: true } | { ok: false; error: string };

export function useAction(podId: string) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = (action: () => Promise<Result | { ok: boolean; error?: string }>, onOk?: () => void) =>
    start(async () => {
      setError(null);
      const r = await action();
      if (!r.ok) setError(("error" in r && r.error) || "refused");
      else onOk?.();
      await Promise.all([
        qc.invalidateQueries({ queryKey: ["state", podId] }),
        qc.invalidateQueries({ queryKey: ["inbox"] }),
      ]);
    });
  return { run, pending, error };
}

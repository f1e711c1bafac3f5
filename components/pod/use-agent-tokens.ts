"use client";
// The pod's agent tokens (never their secrets) for pod admins, and running the
// token actions: their refusal shown, the list and the pod's state refreshed.
import { useState, useTransition } from "react";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CallResult } from "@/server/wire/actions";
import { callApi } from "../shared/api-client";
import { listAgentTokensRoute } from "../shared/api-routes";

/** Refetched as the tape moves (`seq`): an agent that spoke has just used its token. Only a pod admin (`enabled`) reads them. */
export function useAgentTokens(podId: string, seq: number, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ["agent-tokens", podId, seq],
    placeholderData: keepPreviousData,
    queryFn: () => callApi(listAgentTokensRoute, { podId }).then((r) => r.tokens),
    refetchInterval: 30_000,
  });
}

/** Field names as the form labels them, so a refusal reads as the form does. */
const LABELS: Record<string, string> = {
  memberId: "Agent id",
  displayName: "Display name",
  roles: "Roles",
  label: "Token label",
};
const readable = (error: string) =>
  error.replace(/\b(memberId|displayName|roles|label)(\.\d+)?: /g, (_, f: string) => `${LABELS[f]}: `);

export function useTokenAction(podId: string) {
  const qc = useQueryClient();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const run = <T>(action: () => Promise<CallResult<T>>, onOk: (value: T) => void) =>
    start(async () => {
      setError(null);
      try {
        const r = await action();
        if (r.ok) onOk(r.value);
        else setError(readable(r.error));
      } catch {
        setError("the server could not be reached; check the list below before trying again");
      }
      await Promise.all([
        qc.invalidateQueries({ queryKey: ["agent-tokens", podId] }),
        qc.invalidateQueries({ queryKey: ["state", podId] }),
      ]);
    });
  return { run, pending, error, clear: () => setError(null) };
}

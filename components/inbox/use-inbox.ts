"use client";
// The cross-pod inbox as server state: read when the pods feed is joined, then kept up to date a
// pod at a time: a pod whose inbox changed ("pods:inbox", only for pods this person may see) has
// its part read again; the other pods' events cost nothing. Every minute as a backstop.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { InboxEntry } from "@/server/wire/views";
import { watchPods } from "../shared/socket-client";
import { callApi } from "../shared/api-client";
import { listInboxRoute } from "../shared/api-routes";

const readInbox = (podId?: string) => callApi(listInboxRoute, { podId }).then((r) => r.items);

export function useInbox() {
  const qc = useQueryClient();
  useEffect(() => {
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readChanged = async () => {
      timer = undefined;
      const pods = [...pending];
      pending.clear();
      for (const podId of pods) {
        const items = await readInbox(podId).catch(() => null);
        if (!items) return void qc.invalidateQueries({ queryKey: ["inbox"] });
        qc.setQueryData<InboxEntry[]>(
          ["inbox"],
          (old) =>
            old &&
            [...old.filter((i) => i.podId !== podId), ...items].sort((a, b) => a.at.localeCompare(b.at)),
        );
      }
    };
    const unwatch = watchPods({
      joined: () => void qc.refetchQueries({ queryKey: ["inbox"] }, { cancelRefetch: false }),
      inbox: ({ podId }) => {
        pending.add(podId);
        timer ??= setTimeout(() => void readChanged(), 300);
      },
    });
    return () => {
      clearTimeout(timer);
      unwatch();
    };
  }, [qc]);
  return useQuery({ queryKey: ["inbox"], queryFn: () => readInbox(), refetchInterval: 60_000 });
}

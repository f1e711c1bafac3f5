"use client";
// The cross-pod inbox as server state, kept live a pod at a time (../shared/use-live-pod-parts.ts):
// a pod whose inbox changed ("pods:inbox") has its part read again; other pods' events cost nothing.
import type { InboxEntry } from "@/server/wire/views";
import { callApi } from "../shared/api-client";
import { listInboxRoute } from "../shared/api-routes";
import { useLivePodParts } from "../shared/use-live-pod-parts";

const readInbox = (podId?: string) => callApi(listInboxRoute, { podId }).then((r) => r.items);

const merge = (old: InboxEntry[], podId: string, part: InboxEntry[]) =>
  [...old.filter((i) => i.podId !== podId), ...part].sort((a, b) => a.at.localeCompare(b.at));

export function useInbox() {
  return useLivePodParts({
    key: "inbox",
    readAll: () => readInbox(),
    readPod: readInbox,
    merge,
    on: ["inbox"],
    windowMs: 300,
  });
}

"use client";
// A cross-pod read kept live a pod at a time: read whole once, then, when the cross-pod feed says a
// pod changed (only pods this person may see), that pod's part is read again and merged in. Pods
// that change within one window are read together; one read at a time, so an older part never
// lands over a newer one. Many pods changing at once are one whole read. Every minute as a backstop.
import { useEffect } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { watchPods } from "./socket-client";

type LivePodParts<T> = {
  key: string;
  readAll: () => Promise<T>;
  readPod: (podId: string) => Promise<T>;
  /** The whole with one pod's part replaced by a fresh read of it. */
  merge: (old: T, podId: string, part: T) => T;
  /** Which of the feed's notices mean this read changed. */
  on: ReadonlyArray<"count" | "inbox">;
  windowMs: number;
};

/** Past this many pods changed in one window, one whole read costs less than one read per pod. */
const MAX_POD_READS = 8;

export function useLivePodParts<T>({ key, readAll, readPod, merge, on, windowMs }: LivePodParts<T>) {
  const qc = useQueryClient();
  useEffect(() => {
    const queryKey = [key];
    const pending = new Set<string>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const readChanged = async () => {
      timer = undefined;
      const pods = [...pending];
      pending.clear();
      if (pods.length > MAX_POD_READS) return void qc.invalidateQueries({ queryKey });
      for (const podId of pods) {
        const part = await readPod(podId).catch(() => null);
        if (!part) return void qc.invalidateQueries({ queryKey });
        qc.setQueryData<T>(queryKey, (old) => old && merge(old, podId, part));
      }
    };
    let reading = Promise.resolve();
    const changed = ({ podId }: { podId: string }) => {
      pending.add(podId);
      // A read that failed in a way not caught above must not stop every later one.
      timer ??= setTimeout(() => void (reading = reading.then(readChanged).catch(() => {})), windowMs);
    };
    const unwatch = watchPods({
      joined: () => void qc.refetchQueries({ queryKey }, { cancelRefetch: false }),
      count: on.includes("count") ? changed : undefined,
      inbox: on.includes("inbox") ? changed : undefined,
    });
    return () => {
      clearTimeout(timer);
      unwatch();
    };
    // The read functions are module-level in every caller; the key names the read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [qc, key]);
  return useQuery({ queryKey: [key], queryFn: readAll, refetchInterval: 60_000 });
}

"use client";
// The live tape of one pod: resumes from the last seq it holds (also across a
// reload, via sessionStorage), drops anything it already has, and
// resubscribes if it ever sees a gap — a lost frame costs latency, not data.
import { useEffect, useRef, useState } from "react";
import type { TapeEvent } from "@/server/wire/events";
import type { TapeFrame } from "@/server/wire/socket";
import { callApi } from "../shared/api-client";
import { getPodRoute } from "../shared/api-routes";
import { getSocket } from "../shared/socket-client";

export type TapeStatus = "connecting" | "catching-up" | "live" | "offline" | "error" | "ended";
const KEEP = 2000;
/** Recent events kept from the start; older ones are paged in by the tape view as it scrolls. */
const INITIAL_WINDOW = 100;
const storageKey = (podId: string) => `podwatch:tape:${podId}`;

type Saved = { lastSeq: number; events: TapeEvent[] };

function restore(podId: string): Saved | null {
  try {
    const raw = sessionStorage.getItem(storageKey(podId));
    return raw ? (JSON.parse(raw) as Saved) : null;
  } catch {
    return null;
  }
}

/** `knownHead`: the pod's head as the server rendered the page, so the subscription starts without a round trip. */
export function useLiveTape(podId: string, knownHead?: number) {
  const [events, setEvents] = useState<TapeEvent[]>([]);
  const [status, setStatus] = useState<TapeStatus>("connecting");
  const [error, setError] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const lastSeq = useRef<number | null>(null);

  useEffect(() => {
    const socket = getSocket();
    let cancelled = false;
    let buffer: TapeEvent[] = [];
    let saveTimer: ReturnType<typeof setTimeout> | undefined;

    const save = () => {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => {
        try {
          sessionStorage.setItem(
            storageKey(podId),
            JSON.stringify({ lastSeq: lastSeq.current, events: buffer.slice(-INITIAL_WINDOW) }),
          );
        } catch {
          /* storage full or disabled: resuming falls back to the server's window */
        }
      }, 200);
    };
    const subscribe = () => {
      if (lastSeq.current === null) return;
      setStatus("catching-up");
      socket.emit("tape:subscribe", { podId, afterSeq: lastSeq.current });
    };
    const onFrame = (frame: TapeFrame, ack?: () => void) => {
      // Taken: the server sends the next backlog page only now (live frames ask for no ack).
      // Any pod's frame is acked, so a page in flight across an unsubscribe cannot stall the socket.
      ack?.();
      if (frame.podId !== podId || lastSeq.current === null) return;
      const fresh = frame.events.filter((e) => e.seq > lastSeq.current!);
      if (!fresh.length) return;
      if (fresh[0]!.seq !== lastSeq.current + 1) return subscribe(); // a gap: ask again from what we have
      lastSeq.current = fresh.at(-1)!.seq;
      buffer = buffer.concat(fresh).slice(-KEEP);
      setEvents(buffer);
      save();
    };
    const onLive = (info: { podId: string }) => info.podId === podId && setStatus("live");
    const onError = (info: { podId: string; message: string }) => {
      if (info.podId !== podId) return;
      setStatus("error");
      setError(info.message);
    };
    // The server ends a socket itself only when its credential no longer holds (it says why first):
    // such a socket never reconnects, so "Reconnecting…" would be a lie.
    const onEnded = (frame: { reason: string }) => {
      setStatus("ended");
      setEnded(frame.reason);
    };
    const onDisconnect = (reason: string) =>
      setStatus(reason === "io server disconnect" ? "ended" : "offline");

    socket.on("tape:events", onFrame);
    socket.on("tape:live", onLive);
    socket.on("tape:error", onError);
    socket.on("connect", subscribe);
    socket.on("disconnect", onDisconnect);
    socket.on("access:ended", onEnded);

    (async () => {
      const saved = restore(podId);
      if (saved) {
        buffer = saved.events;
        lastSeq.current = saved.lastSeq;
        setEvents(buffer);
      } else {
        try {
          const head = knownHead ?? (await callApi(getPodRoute, { podId })).eventCount;
          lastSeq.current = Math.max(0, head - INITIAL_WINDOW);
        } catch (e) {
          if (!cancelled) {
            setStatus("error");
            setError((e as Error).message);
          }
          return;
        }
      }
      if (!cancelled && socket.connected) subscribe();
    })();

    return () => {
      cancelled = true;
      clearTimeout(saveTimer);
      socket.emit("tape:unsubscribe", { podId });
      socket.off("tape:events", onFrame);
      socket.off("tape:live", onLive);
      socket.off("tape:error", onError);
      socket.off("connect", subscribe);
      socket.off("disconnect", onDisconnect);
      socket.off("access:ended", onEnded);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the known head only seeds the first subscription
  }, [podId]);

  return { events, status, error, ended };
}

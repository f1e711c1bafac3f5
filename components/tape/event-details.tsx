"use client";
// Everything one event says: who, when (the server's receipt and the agent's claim), body, meta, hashes.
import type { TapeEvent } from "@/server/wire/events";
import { EventBody } from "./event-body";
import { RelativeTime } from "../shared/relative-time";

export function EventDetails({ event }: { event: TapeEvent }) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-xs text-zinc-500">#{event.seq}</span>
        <span className="font-medium">{event.actor}</span>
        {event.role && (
          <span className="rounded-full bg-zinc-100 px-2 text-xs dark:bg-zinc-800">{event.role}</span>
        )}
        <span className="rounded-full border border-zinc-200 px-2 text-xs dark:border-zinc-700">
          {event.type}
        </span>
      </div>
      <p className="text-xs text-zinc-500">
        received <RelativeTime iso={event.receivedAt} /> ({new Date(event.receivedAt).toLocaleString()})
        {/* The agent's own clock, shown as its claim: ages and ordering follow the server's receipt. */}
        {event.ts && <> · agent says {event.ts}</>}
      </p>
      <EventBody type={event.type} body={event.body} />
      {event.meta && (
        <p className="text-xs text-zinc-500">
          {Object.entries(event.meta)
            .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`)
            .join(" · ")}
        </p>
      )}
      <dl className="space-y-0.5 font-mono text-[10px] text-zinc-500">
        <div className="truncate" title={event.id}>
          id {event.id}
        </div>
        {/* A share link reads no hashes (server/pods/onlooker-view.ts): nothing to show then. */}
        {event.hash && (
          <div className="truncate" title={event.hash}>
            hash {event.hash}
          </div>
        )}
        {event.prevHash && (
          <div className="truncate" title={event.prevHash}>
            prev {event.prevHash}
          </div>
        )}
      </dl>
    </div>
  );
}

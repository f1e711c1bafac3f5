"use client";
// Steering one running agent session, for the pod's approvers: send it a message, interrupt its
// turn with a reason (asked first: it cannot be undone), or give an idle one its next word. Each
// act is on the tape as the person's and waits in the session until the agent's next hook takes
// it; the list below says which are still pending and where each was delivered. A session whose
// Stop is held for a person's Resume (the agent's idleHold) hears a Resume at once and carries on;
// a notification's tap opens Now with `?resume=<session>`, which focuses that session's box.
import { useEffect, useRef, useState } from "react";
import type { PodStateView } from "@/server/wire/views";
import { steerSession } from "@/server/web/server-actions";
import { ConfirmButton } from "../shared/confirm-button";
import { useAction } from "../shared/use-action";
import { useClientNow } from "../shared/use-client-now";

type Steer = NonNullable<PodStateView["sessions"][number]["steers"]>[number];
/** What steering reads of a session: the Sessions tab's and the Now view's both have it. */
type Session = {
  sessionId: string;
  last: { at: string };
  ended: unknown;
  steers?: Steer[];
  /** Its Stop held for a person's Resume until `until`, while its turn stays ended. */
  idleHold?: { until: string };
  turn?: { open: boolean } | null;
};

/** A session this long without a word from its agent is offered Resume rather than Send. */
const IDLE_MS = 2 * 60_000;
const MAX_TEXT = 2000;
const button =
  "rounded-md bg-zinc-900 px-3 py-1 text-sm font-medium text-white disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900";
const quiet =
  "rounded-md border border-zinc-300 px-3 py-1 text-sm hover:bg-zinc-50 disabled:opacity-50 dark:border-zinc-700 dark:hover:bg-zinc-800";
const danger = "rounded-md bg-red-700 px-3 py-1 text-sm font-medium text-white disabled:opacity-50";

/** A random id; getRandomValues, unlike randomUUID, also works on a page served over plain http (a phone on the LAN). */
function newSteerId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `steer-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** What a Resume with no words of its own says. */
const CARRY_ON = "Carry on.";

/** Whether the agent has been quiet a while, and whether its Stop still waits for a Resume, by the reader's clock (the server renders neither). */
function useIdle(lastAt: string, heldUntil: string | null): { idle: boolean; held: boolean } {
  const { now, onClient } = useClientNow(15_000);
  const held = onClient && heldUntil !== null && now < Date.parse(heldUntil);
  return { idle: held || (onClient && now - Date.parse(lastAt) > IDLE_MS), held };
}

/** Focuses the box when the page was opened to resume this session (a notification's tap). */
function useFocusWhenAsked(sessionId: string) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (new URLSearchParams(window.location.search).get("resume") !== sessionId) return;
    ref.current?.focus();
    ref.current?.scrollIntoView({ block: "center" });
  }, [sessionId]);
  return ref;
}

export function SessionSteer({
  podId,
  session,
  canAct,
}: {
  podId: string;
  session: Session;
  canAct: boolean;
}) {
  const steers = session.steers ?? [];
  const heldUntil = session.idleHold && !session.turn?.open ? session.idleHold.until : null;
  const { idle, held } = useIdle(session.last.at, heldUntil);
  const box = useFocusWhenAsked(session.sessionId);
  const { run, pending, error } = useAction(podId);
  const [text, setText] = useState("");
  // One id per draft, kept until the server took it: a retry after a lost answer is stored once.
  const [steerId, setSteerId] = useState(newSteerId);
  if (session.ended && steers.length === 0) return null;
  const send = (act: "message" | "interrupt" | "resume", words: string) =>
    run(
      () => steerSession({ podId, sessionId: session.sessionId, steerId, act, text: words }),
      () => (setText(""), setSteerId(newSteerId())),
    );
  const words = text.trim();
  const label = `session ${session.sessionId}`;
  return (
    <div
      className="mt-2 space-y-2 border-t border-zinc-200 pt-2 dark:border-zinc-800"
      data-testid="session-steer"
    >
      {steers.length > 0 && <SteerList steers={steers} />}
      {canAct && !session.ended && (
        <form
          className="flex flex-wrap items-center gap-2"
          aria-label={`Steer ${label}`}
          onSubmit={(e) => {
            e.preventDefault();
            if (held) send("resume", words || CARRY_ON);
            else if (words) send(idle ? "resume" : "message", words);
          }}
        >
          {held && (
            <p
              className="w-full text-sm font-medium text-amber-800 dark:text-amber-300"
              data-testid="steer-held"
            >
              Idle, waiting for you to resume: it carries on at once with what you write (or “{CARRY_ON}”).
            </p>
          )}
          <input
            ref={box}
            aria-label={`Message to ${label}`}
            placeholder={
              held
                ? "What it does next…"
                : idle
                  ? "Its next word when it resumes…"
                  : "Tell it something at its next step…"
            }
            value={text}
            maxLength={MAX_TEXT}
            onChange={(e) => setText(e.target.value)}
            className="min-w-0 flex-1 basis-48 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950"
          />
          <button disabled={pending || (!words && !held)} className={button}>
            {idle ? "Resume" : "Send"}
          </button>
          <ConfirmButton
            question={
              <>
                Interrupt? Its turn ends at the next hook, and a tool call about to run is denied
                {words ? ", saying your text" : ""}.
              </>
            }
            confirmLabel="Yes, interrupt"
            groupLabel={`Confirm interrupting ${label}`}
            pending={pending}
            onConfirm={() => send("interrupt", words || "Stop here and wait for a person.")}
            buttonClass={quiet}
            confirmClass={danger}
            testId="steer-interrupt-confirm"
          >
            Interrupt
          </ConfirmButton>
          {idle && !held && (
            <p className="w-full text-xs text-zinc-600 dark:text-zinc-400">
              An idle agent hears this at its next hook: when it is given its next prompt.
            </p>
          )}
        </form>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

function SteerList({ steers }: { steers: Steer[] }) {
  return (
    <ul className="space-y-1 text-sm" aria-label="Steering">
      {steers.map((x) => (
        <li key={x.steerId} className="flex flex-wrap items-baseline gap-x-2" data-testid="steer">
          <span className="font-medium">
            {x.act === "interrupt" ? "Interrupt" : x.act === "resume" ? "Resume" : "Message"}
          </span>
          <span className="min-w-0 break-words">{x.text}</span>
          <span
            className={`text-xs ${x.delivered ? "text-green-800 dark:text-green-400" : "text-amber-800 dark:text-amber-300"}`}
            data-testid="steer-status"
          >
            {x.delivered ? `delivered at ${x.delivered.via}` : "pending: at its next hook"}
          </span>
          <span className="text-xs text-zinc-600 dark:text-zinc-400">by {x.by}</span>
        </li>
      ))}
    </ul>
  );
}

"use client";
// The Now view with each session's steering controls (components/sessions/session-steer.tsx) in
// its row: the same controls as the pod's Sessions tab, for the pods the person approves in.
import { SessionSteer } from "../sessions/session-steer";
import { NowView } from "./now-view";

export function SteerableNow() {
  return (
    <NowView
      renderActions={(s) => (
        <SessionSteer
          podId={s.podId}
          session={{
            sessionId: s.sessionId,
            last: { at: s.lastEventAt },
            ended: s.ended,
            steers: s.steers,
            idleHold: s.idleHeldUntil ? { until: s.idleHeldUntil } : undefined,
          }}
          canAct={s.canSteer}
        />
      )}
    />
  );
}

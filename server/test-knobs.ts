// Timings and allowances only tests change. They are not configuration: nothing reads them from
// the environment, and the production server (server/main.ts) always runs with PRODUCTION_KNOBS.
// A test passes others to startServer (StartOptions.knobs): in process through
// server/testing/test-server.ts, as a child process through server/testing/test-main.ts.
import type { AppendEvents } from "./tape/append-events";

export type TestKnobs = {
  /** How long a "minute" of a pod's checkpoint cadence lasts for the watchdog (60000 = real time). */
  watchdogMinuteMs: number;
  /** How soon after its event a deadline may be (60000 = the rule's minute). */
  deadlineMinMs: number;
  /** Shrinks the webhook retry schedule and the day of failures before an endpoint is disabled (1 = real time). */
  webhookTimeScale: number;
  /** Accept push endpoints on loopback, over http too (a push service the test plays); real ones are https. */
  pushInsecureLoopback: boolean;
  /**
   * Crash tests: the process SIGKILLs itself once a request holding an event of this type has
   * committed, before the request is answered (null: never).
   */
  crashAfterAppendOf: string | null;
};

export const PRODUCTION_KNOBS: Readonly<TestKnobs> = Object.freeze({
  watchdogMinuteMs: 60_000,
  deadlineMinMs: 60_000,
  webhookTimeScale: 1,
  pushInsecureLoopback: false,
  crashAfterAppendOf: null,
});

/**
 * The write path, or with crashAfterAppendOf set, the write path of a server that dies at the
 * worst moment: the events are stored and their caller never hears so (a retry must replay them).
 */
export function crashingAfterAppendOf(append: AppendEvents, type: string | null): AppendEvents {
  if (type === null) return append;
  return async (podId, inputs, as) => {
    const acks = await append(podId, inputs, as);
    // A signal a process sends itself is delivered before kill() returns: nothing after runs.
    if (inputs.some((e) => e.type === type)) process.kill(process.pid, "SIGKILL");
    return acks;
  };
}

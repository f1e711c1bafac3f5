// Timings and allowances only tests change. They are not configuration: nothing reads them from
// the environment, and the production server (server/main.ts) always runs with PRODUCTION_KNOBS.
// A test passes others to startServer (StartOptions.knobs): in process through
// server/testing/test-server.ts, as a child process through server/testing/test-main.ts.
export type TestKnobs = {
  /** How long a "minute" of a pod's checkpoint cadence lasts for the watchdog (60000 = real time). */
  watchdogMinuteMs: number;
  /** How soon after its event a deadline may be (60000 = the rule's minute). */
  deadlineMinMs: number;
  /** Shrinks the webhook retry schedule and the day of failures before an endpoint is disabled (1 = real time). */
  webhookTimeScale: number;
  /** Accept push endpoints on loopback, over http too (a push service the test plays); real ones are https. */
  pushInsecureLoopback: boolean;
};

export const PRODUCTION_KNOBS: Readonly<TestKnobs> = Object.freeze({
  watchdogMinuteMs: 60_000,
  deadlineMinMs: 60_000,
  webhookTimeScale: 1,
  pushInsecureLoopback: false,
});

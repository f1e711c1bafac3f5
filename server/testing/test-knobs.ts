// The test knobs (server/test-knobs.ts) as the tests write them: variables named like the
// environment's, PODWATCH_DEADLINE_MIN_MS=100 and the like, beside a server's real configuration.
// Only the test harness reads them (test-server.ts in process, test-main.ts for a child process);
// the production configuration (server/config.ts) knows none of them, so no deployment can set one.
import { z } from "zod";
import type { TestKnobs } from "../test-knobs";

const ZKnobs = z.object({
  PODWATCH_WATCHDOG_MINUTE_MS: z.coerce.number().int().min(100).max(60_000).optional(),
  PODWATCH_DEADLINE_MIN_MS: z.coerce.number().int().min(100).max(60_000).optional(),
  PODWATCH_WEBHOOK_TIME_SCALE: z.coerce.number().positive().max(1).optional(),
  PODWATCH_PUSH_INSECURE_LOOPBACK: z.enum(["0", "1"]).optional(),
  PODWATCH_CRASH_AFTER_APPEND_OF: z
    .string()
    .regex(/^[a-z][a-z_.]*$/)
    .max(64)
    .optional(),
});
export const KNOB_NAMES = Object.keys(ZKnobs.shape) as (keyof typeof ZKnobs.shape)[];

/** Splits a test's variables into the knobs it sets and the rest (the server's configuration). */
export function knobsFromEnv(all: Record<string, string | undefined>): {
  knobs: Partial<TestKnobs>;
  env: Record<string, string | undefined>;
} {
  const parsed = ZKnobs.safeParse(all);
  if (!parsed.success)
    throw new Error(
      `Invalid test knobs: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    );
  const k = parsed.data;
  const knobs: Partial<TestKnobs> = {
    ...(k.PODWATCH_WATCHDOG_MINUTE_MS !== undefined && { watchdogMinuteMs: k.PODWATCH_WATCHDOG_MINUTE_MS }),
    ...(k.PODWATCH_DEADLINE_MIN_MS !== undefined && { deadlineMinMs: k.PODWATCH_DEADLINE_MIN_MS }),
    ...(k.PODWATCH_WEBHOOK_TIME_SCALE !== undefined && { webhookTimeScale: k.PODWATCH_WEBHOOK_TIME_SCALE }),
    ...(k.PODWATCH_PUSH_INSECURE_LOOPBACK !== undefined && {
      pushInsecureLoopback: k.PODWATCH_PUSH_INSECURE_LOOPBACK === "1",
    }),
    ...(k.PODWATCH_CRASH_AFTER_APPEND_OF !== undefined && {
      crashAfterAppendOf: k.PODWATCH_CRASH_AFTER_APPEND_OF,
    }),
  };
  const env = Object.fromEntries(
    Object.entries(all).filter(([name]) => !(KNOB_NAMES as string[]).includes(name)),
  );
  return { knobs, env };
}

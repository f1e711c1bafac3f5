// GET /api/v1/now's answer: every agent session of the caller's pods, where it stands now
// (server/domain/now/classify-session.ts), with the inbox items the caller may answer for it.
import { z } from "zod";
import { AGENT_KINDS } from "../domain/vocabulary";
import { NOW_STATES } from "../domain/now/classify-session";
import { ZInboxEntry } from "./inbox";
import { ZSteer } from "./pod-state-view";

export const ZNowQuery = z.object({
  /** That pod's part only (what the control room reads again when one pod changed). */
  podId: z.string().min(1).max(200).optional(),
});

export const ZNowSession = z.object({
  podId: z.string(),
  podName: z.string(),
  sessionId: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  /** The agent program that reported it (null: another way in, e.g. OpenTelemetry or the SDK). */
  kind: z.enum(AGENT_KINDS).nullable(),
  model: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  state: z.enum(NOW_STATES),
  /** When the session entered this state. */
  since: z.string(),
  lastEventAt: z.string(),
  /** The open turn: when it began and the tool under way (working sessions). */
  turn: z
    .object({ since: z.string(), tool: z.string().nullable(), toolSince: z.string().nullable() })
    .nullable(),
  /** The agent's latest checkpoint in this pod. */
  lastCheckpointAt: z.string().nullable(),
  /** What its agent's usage reports with a cost add up to today (UTC) in this pod (null: none today). */
  agentCostTodayUsd: z.number().nullable(),
  /** The items waiting for the caller that this session's agent is held on, oldest first. */
  items: z.array(ZInboxEntry),
  /** The caller may steer it (an approver of its pod, as the pod page's controls). */
  canSteer: z.boolean(),
  ended: z.boolean(),
  /** What people told it: the pending steers and the latest delivered. */
  steers: z.array(ZSteer),
  /** The person who connected its agent (made the agent's newest live token); null: nobody now. */
  connectedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Its Stop is held for a person's Resume until then (the agent's idleHold); null: it is not. */
  idleHeldUntil: z.string().nullable(),
});

export const ZNowPod = z.object({
  id: z.string(),
  name: z.string(),
  /** The caller may connect agents to it (pod admin). */
  canConnect: z.boolean(),
});

export const ZNowResponse = z.object({
  /** The server's clock when it read; "today" starts at `dayStart` (midnight UTC). */
  now: z.string(),
  dayStart: z.string(),
  staleAfterMinutes: z.number(),
  pods: z.array(ZNowPod),
  /** Grouped in NOW_STATES' order, the longest in its state first. */
  sessions: z.array(ZNowSession),
  /** Some sessions were left out (at most MAX_NOW_PER_POD per pod, MAX_NOW_SESSIONS in all). */
  truncated: z.boolean(),
});

export type NowSession = z.infer<typeof ZNowSession>;
export type NowPod = z.infer<typeof ZNowPod>;
export type NowResponse = z.infer<typeof ZNowResponse>;

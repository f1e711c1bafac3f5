// Every feature's operation table, in one list: what the REST router mounts, the OpenAPI document
// and the API reference describe, and the reachability test walks.
import { webhookOperations } from "../webhooks/webhook-operations";
import { shareLinkOperations } from "../access/share-link-operations";
import { agentTokenOperations } from "../access/agent-token-operations";
import { peopleOperations } from "../access/people-operations";
import { memberOperations } from "../access/member-operations";
import { notifyOperations } from "../notify/notify-operations";
import { podOperations } from "../pods/pod-operations";
import { inboxOperations } from "../pods/inbox-operations";
import { nowOperations } from "../now/now-operations";
import { steerOperations } from "../pods/steer-operations";
import { sessionSteerOperations } from "../steer/steer-operations";
import { budgetOperations } from "../budgets/budget-operations";
import { signalsOperations } from "../signals/signals-operations";
import { protocolOperations } from "../pods/protocol-operations";
import { tapeOperations } from "../tape/tape-operations";
import { blobOperations } from "../blobs/blob-operations";
import { hookOperations } from "../hooks/hook-operations";
import { codexHookOperations } from "../hooks/codex-hook-operations";
import { geminiHookOperations } from "../hooks/gemini-hook-operations";
import { otlpOperations } from "../otlp/otlp-operations";
import { agentKitOperations } from "../agent-kit/agent-kit-operations";
import { healthOperations } from "./health-operations";
import type { Operation } from "./operation";

export const operationTables = {
  webhooks: webhookOperations,
  shareLinks: shareLinkOperations,
  agentTokens: agentTokenOperations,
  people: peopleOperations,
  members: memberOperations,
  notifications: notifyOperations,
  pods: podOperations,
  inbox: inboxOperations,
  now: nowOperations,
  steer: steerOperations,
  sessionSteer: sessionSteerOperations,
  budgets: budgetOperations,
  signals: signalsOperations,
  protocol: protocolOperations,
  tape: tapeOperations,
  blobs: blobOperations,
  hooks: hookOperations,
  codexHooks: codexHookOperations,
  geminiHooks: geminiHookOperations,
  otlp: otlpOperations,
  agentKit: agentKitOperations,
  health: healthOperations,
};

/** Every operation by its name (the browser's typed client takes its types from this, and only types). */
export const operationsByName = {
  ...webhookOperations,
  ...shareLinkOperations,
  ...agentTokenOperations,
  ...peopleOperations,
  ...memberOperations,
  ...notifyOperations,
  ...podOperations,
  ...inboxOperations,
  ...nowOperations,
  ...steerOperations,
  ...sessionSteerOperations,
  ...budgetOperations,
  ...signalsOperations,
  ...protocolOperations,
  ...tapeOperations,
  ...blobOperations,
  ...hookOperations,
  ...codexHookOperations,
  ...geminiHookOperations,
  ...otlpOperations,
  ...agentKitOperations,
  ...healthOperations,
};
export type Operations = typeof operationsByName;

export const operations: readonly Operation[] = Object.values(operationTables).flatMap(
  (t) => Object.values(t) as Operation[],
);

// Written by `npx tsx scripts/write-api-docs.ts` from the operation tables (server/operations/); do not edit.
// body: the input field sent as the JSON body ("": the fields neither path nor query takes), or none.
export const listWebhooksRoute = {
  name: "listWebhooks",
  method: "GET",
  path: "/api/v1/pods/{podId}/webhooks",
  query: [],
  body: null,
} as const;
export const createWebhookRoute = {
  name: "createWebhook",
  method: "POST",
  path: "/api/v1/pods/{podId}/webhooks",
  query: [],
  body: "webhook",
} as const;
export const updateWebhookRoute = {
  name: "updateWebhook",
  method: "PATCH",
  path: "/api/v1/pods/{podId}/webhooks/{endpointId}",
  query: [],
  body: "update",
} as const;
export const deleteWebhookRoute = {
  name: "deleteWebhook",
  method: "DELETE",
  path: "/api/v1/pods/{podId}/webhooks/{endpointId}",
  query: [],
  body: null,
} as const;
export const testWebhookRoute = {
  name: "testWebhook",
  method: "POST",
  path: "/api/v1/pods/{podId}/webhooks/{endpointId}/test",
  query: [],
  body: null,
} as const;
export const listWebhookDeliveriesRoute = {
  name: "listWebhookDeliveries",
  method: "GET",
  path: "/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries",
  query: ["before", "limit"],
  body: null,
} as const;
export const redeliverWebhookRoute = {
  name: "redeliverWebhook",
  method: "POST",
  path: "/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver",
  query: [],
  body: null,
} as const;
export const createShareLinkRoute = {
  name: "createShareLink",
  method: "POST",
  path: "/api/v1/pods/{podId}/share-links",
  query: [],
  body: "link",
} as const;
export const listShareLinksRoute = {
  name: "listShareLinks",
  method: "GET",
  path: "/api/v1/pods/{podId}/share-links",
  query: [],
  body: null,
} as const;
export const revokeShareLinkRoute = {
  name: "revokeShareLink",
  method: "DELETE",
  path: "/api/v1/pods/{podId}/share-links/{linkId}",
  query: [],
  body: null,
} as const;
export const createAgentTokenRoute = {
  name: "createAgentToken",
  method: "POST",
  path: "/api/v1/pods/{podId}/members/{memberId}/tokens",
  query: [],
  body: "",
} as const;
export const listAgentTokensRoute = {
  name: "listAgentTokens",
  method: "GET",
  path: "/api/v1/pods/{podId}/tokens",
  query: [],
  body: null,
} as const;
export const revokeAgentTokenRoute = {
  name: "revokeAgentToken",
  method: "DELETE",
  path: "/api/v1/pods/{podId}/tokens/{tokenId}",
  query: [],
  body: null,
} as const;
export const rotateAgentTokenRoute = {
  name: "rotateAgentToken",
  method: "POST",
  path: "/api/v1/pods/{podId}/tokens/{tokenId}/rotate",
  query: [],
  body: null,
} as const;
export const invitePersonRoute = {
  name: "invitePerson",
  method: "POST",
  path: "/api/v1/invites",
  query: [],
  body: "",
} as const;
export const listPeopleRoute = {
  name: "listPeople",
  method: "GET",
  path: "/api/v1/users",
  query: [],
  body: null,
} as const;
export const resetPasswordRoute = {
  name: "resetPassword",
  method: "POST",
  path: "/api/v1/users/{userId}/reset",
  query: [],
  body: null,
} as const;
export const createUserRoute = {
  name: "createUser",
  method: "POST",
  path: "/api/v1/users",
  query: [],
  body: "",
} as const;
export const setCanCreatePodsRoute = {
  name: "setCanCreatePods",
  method: "PATCH",
  path: "/api/v1/users/{userId}",
  query: [],
  body: "",
} as const;
export const addMemberRoute = {
  name: "addMember",
  method: "POST",
  path: "/api/v1/pods/{podId}/members",
  query: [],
  body: "",
} as const;
export const setPersonAccessRoute = {
  name: "setPersonAccess",
  method: "PATCH",
  path: "/api/v1/pods/{podId}/members/{memberId}",
  query: [],
  body: "",
} as const;
export const removePersonFromPodRoute = {
  name: "removePersonFromPod",
  method: "DELETE",
  path: "/api/v1/pods/{podId}/members/{memberId}",
  query: [],
  body: null,
} as const;
export const listPushDevicesRoute = {
  name: "listPushDevices",
  method: "GET",
  path: "/api/v1/me/push",
  query: [],
  body: null,
} as const;
export const addPushDeviceRoute = {
  name: "addPushDevice",
  method: "POST",
  path: "/api/v1/me/push/devices",
  query: [],
  body: "",
} as const;
export const removePushDeviceRoute = {
  name: "removePushDevice",
  method: "DELETE",
  path: "/api/v1/me/push/devices/{deviceId}",
  query: [],
  body: null,
} as const;
export const readPreferencesRoute = {
  name: "readPreferences",
  method: "GET",
  path: "/api/v1/me/preferences",
  query: [],
  body: null,
} as const;
export const saveNotificationPreferencesRoute = {
  name: "saveNotificationPreferences",
  method: "PUT",
  path: "/api/v1/me/preferences",
  query: [],
  body: "",
} as const;
export const actOnNotificationRoute = {
  name: "actOnNotification",
  method: "POST",
  path: "/api/v1/me/inbox/act",
  query: [],
  body: "",
} as const;
export const getPodRoute = {
  name: "getPod",
  method: "GET",
  path: "/api/v1/pods/{podId}",
  query: [],
  body: null,
} as const;
export const listPodsRoute = {
  name: "listPods",
  method: "GET",
  path: "/api/v1/pods",
  query: ["archived"],
  body: null,
} as const;
export const createPodRoute = {
  name: "createPod",
  method: "POST",
  path: "/api/v1/pods",
  query: [],
  body: "",
} as const;
export const archivePodRoute = {
  name: "archivePod",
  method: "POST",
  path: "/api/v1/pods/{podId}/archive",
  query: [],
  body: null,
} as const;
export const unarchivePodRoute = {
  name: "unarchivePod",
  method: "POST",
  path: "/api/v1/pods/{podId}/unarchive",
  query: [],
  body: null,
} as const;
export const whoAmIRoute = {
  name: "whoAmI",
  method: "GET",
  path: "/api/v1/me",
  query: [],
  body: null,
} as const;
export const listInboxRoute = {
  name: "listInbox",
  method: "GET",
  path: "/api/v1/inbox",
  query: ["podId"],
  body: null,
} as const;
export const dismissNoticeRoute = {
  name: "dismissNotice",
  method: "POST",
  path: "/api/v1/pods/{podId}/notices/{noticeId}/dismiss",
  query: [],
  body: null,
} as const;
export const readNowRoute = {
  name: "readNow",
  method: "GET",
  path: "/api/v1/now",
  query: ["podId"],
  body: null,
} as const;
export const steerSessionRoute = {
  name: "steerSession",
  method: "POST",
  path: "/api/v1/pods/{podId}/sessions/{sessionId}/steer",
  query: [],
  body: "",
} as const;
export const listBudgetsRoute = {
  name: "listBudgets",
  method: "GET",
  path: "/api/v1/pods/{podId}/budgets",
  query: [],
  body: null,
} as const;
export const setBudgetRoute = {
  name: "setBudget",
  method: "PUT",
  path: "/api/v1/pods/{podId}/budgets/{budgetId}",
  query: [],
  body: "",
} as const;
export const removeBudgetRoute = {
  name: "removeBudget",
  method: "DELETE",
  path: "/api/v1/pods/{podId}/budgets/{budgetId}",
  query: [],
  body: null,
} as const;
export const podSignalsRoute = {
  name: "podSignals",
  method: "GET",
  path: "/api/v1/pods/{podId}/signals",
  query: ["asOf", "from", "to"],
  body: null,
} as const;
export const signalsExportRoute = {
  name: "signalsExport",
  method: "GET",
  path: "/api/v1/signals",
  query: ["pod", "agent", "from", "to", "format"],
  body: null,
} as const;
export const agentRecordRoute = {
  name: "agentRecord",
  method: "GET",
  path: "/api/v1/signals/record",
  query: ["pod", "agent", "from", "to"],
  body: null,
} as const;
export const signingKeyRoute = {
  name: "signingKey",
  method: "GET",
  path: "/api/v1/signals/key",
  query: [],
  body: null,
} as const;
export const importPlanRoute = {
  name: "importPlan",
  method: "POST",
  path: "/api/v1/pods/{podId}/plan",
  query: [],
  body: "plan",
} as const;
export const readPlanRoute = {
  name: "readPlan",
  method: "GET",
  path: "/api/v1/pods/{podId}/plan",
  query: [],
  body: null,
} as const;
export const openWorkcellRoute = {
  name: "openWorkcell",
  method: "POST",
  path: "/api/v1/pods/{podId}/workcells",
  query: [],
  body: "manifest",
} as const;
export const submitProofRoute = {
  name: "submitProof",
  method: "POST",
  path: "/api/v1/pods/{podId}/workcells/{workcellId}/proof",
  query: [],
  body: "proof",
} as const;
export const readPodStateRoute = {
  name: "readPodState",
  method: "GET",
  path: "/api/v1/pods/{podId}/state",
  query: ["atSeq"],
  body: null,
} as const;
export const eventSchemasRoute = {
  name: "eventSchemas",
  method: "GET",
  path: "/api/v1/schema",
  query: [],
  body: null,
} as const;
export const appendEventsRoute = {
  name: "appendEvents",
  method: "POST",
  path: "/api/v1/pods/{podId}/events",
  query: [],
  body: "request",
} as const;
export const readEventsRoute = {
  name: "readEvents",
  method: "GET",
  path: "/api/v1/pods/{podId}/events",
  query: ["after", "limit", "wait", "before", "type", "actor", "role", "taskId", "runId", "q"],
  body: null,
} as const;
export const verifyTapeRoute = {
  name: "verifyTape",
  method: "GET",
  path: "/api/v1/pods/{podId}/verify",
  query: ["full"],
  body: null,
} as const;
export const verifyBlobRoute = {
  name: "verifyBlob",
  method: "GET",
  path: "/api/v1/blobs/{sha256}/verify",
  query: ["pod"],
  body: null,
} as const;
export const claudeCodeHookRoute = {
  name: "claudeCodeHook",
  method: "POST",
  path: "/api/v1/hooks/claude-code",
  query: ["wait", "replay"],
  body: "input",
} as const;
export const codexHookRoute = {
  name: "codexHook",
  method: "POST",
  path: "/api/v1/hooks/codex",
  query: ["wait", "replay"],
  body: "input",
} as const;
export const geminiCliHookRoute = {
  name: "geminiCliHook",
  method: "POST",
  path: "/api/v1/hooks/gemini-cli",
  query: ["wait", "replay"],
  body: "input",
} as const;
export const otlpUnmappedRoute = {
  name: "otlpUnmapped",
  method: "GET",
  path: "/api/v1/pods/{podId}/otlp/unmapped",
  query: [],
  body: null,
} as const;
export const livenessRoute = {
  name: "liveness",
  method: "GET",
  path: "/healthz",
  query: [],
  body: null,
} as const;
export const readinessRoute = {
  name: "readiness",
  method: "GET",
  path: "/readyz",
  query: [],
  body: null,
} as const;

// Written by `npx tsx scripts/write-api-docs.ts` from the operation tables (server/operations/); do not edit.
// body: the input field sent as the JSON body ("": the fields neither path nor query takes), or none.
export const API_ROUTES = {
  listWebhooks: {"method":"GET","path":"/api/v1/pods/{podId}/webhooks","query":[],"body":null},
  createWebhook: {"method":"POST","path":"/api/v1/pods/{podId}/webhooks","query":[],"body":"webhook"},
  updateWebhook: {"method":"PATCH","path":"/api/v1/pods/{podId}/webhooks/{endpointId}","query":[],"body":"update"},
  deleteWebhook: {"method":"DELETE","path":"/api/v1/pods/{podId}/webhooks/{endpointId}","query":[],"body":null},
  testWebhook: {"method":"POST","path":"/api/v1/pods/{podId}/webhooks/{endpointId}/test","query":[],"body":null},
  listWebhookDeliveries: {"method":"GET","path":"/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries","query":["before","limit"],"body":null},
  redeliverWebhook: {"method":"POST","path":"/api/v1/pods/{podId}/webhooks/{endpointId}/deliveries/{deliveryId}/redeliver","query":[],"body":null},
  createShareLink: {"method":"POST","path":"/api/v1/pods/{podId}/share-links","query":[],"body":"link"},
  listShareLinks: {"method":"GET","path":"/api/v1/pods/{podId}/share-links","query":[],"body":null},
  revokeShareLink: {"method":"DELETE","path":"/api/v1/pods/{podId}/share-links/{linkId}","query":[],"body":null},
} as const;

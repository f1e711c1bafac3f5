// Type test, checked by `tsc --noEmit` (npm test): the typed client takes an operation's input and
// answers its output schema's type, from the declaration alone (no caller names the answer's type).
import type { AgentTokensResponse } from "@/server/wire/access";
import type { WebhookDeliveriesResponse } from "@/server/wire/webhooks";
import { callApi } from "./api-client";
import { listAgentTokensRoute, listWebhookDeliveriesRoute, updateWebhookRoute } from "./api-routes";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type Answer<P> = P extends Promise<infer T> ? T : never;

declare const podId: string;
const _tokens = callApi(listAgentTokensRoute, { podId });
const tokensTyped: Equal<Answer<typeof _tokens>, AgentTokensResponse> = true;
const _page = callApi(listWebhookDeliveriesRoute, { podId, endpointId: "e", limit: 10 });
const pageTyped: Equal<Answer<typeof _page>, WebhookDeliveriesResponse> = true;

// @ts-expect-error -- the path's podId is part of the input
const noPod = callApi(listAgentTokensRoute, {});
const wrongField = callApi(updateWebhookRoute, {
  podId,
  endpointId: "e",
  // @ts-expect-error -- an update is enabled, format or events, not a URL
  update: { url: "https://example.com" },
});

export const proofs = [tokensTyped, pageTyped, noPod, wrongField];

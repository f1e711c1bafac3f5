// The pod a webhook message is about, as its bodies name and link it (every format's:
// messages.ts writes the JSON, slack.ts the Block Kit, and both link the same inbox).
export type PodRef = { id: string; name: string; url: string };

/** The link a person follows to the pod's inbox. */
export const podInboxUrl = (pod: PodRef) => `${pod.url}/pods/${encodeURIComponent(pod.id)}?tab=inbox`;

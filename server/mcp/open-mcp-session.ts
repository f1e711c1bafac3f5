// One remote MCP session: the very server `podwatch mcp` runs (agent/mcp), its
// PodAgent speaking to this server over loopback with the caller's own token.
// So every tool call takes the agent API's path (authentication, the pod guard,
// rate limits, body bounds, the one write path, the long-poll behind the waits)
// and the tools cannot drift from the stdio ones. The MCP SDK is loaded only
// once someone opens a session.
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SessionEventStore } from "./session-event-store";
import type { EventStoreBounds } from "./session-event-store";
import type { EventBudget } from "./event-budget";
import { PodAgent } from "../../agent/sdk/pod-agent";
import { PodwatchClient } from "../../agent/sdk/client";
import { createMcpServer } from "../../agent/mcp/mcp-server";

export type Owner = { tokenId: string; podId: string; memberId: string; secret: string };
export type McpSession = {
  id: string;
  owner: Owner;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  events: SessionEventStore;
  lifetime: AbortController;
  lastSeen: number;
  /** POSTs under way (calls); the long-lived GET stream does not count. */
  inFlight: number;
  lastResumeAt: number;
};

/** How often an SSE stream says it is still there (the SDK's default; proxies cut silent streams). */
const KEEP_ALIVE_MS = 15_000;

type Open = {
  owner: Owner;
  loopbackUrl: string;
  newId: () => string;
  onInitialized: (s: McpSession) => void;
  onEnded: (s: McpSession) => void;
  /** What its event store may keep: its own bound, and the budgets it shares (its pod's, the server's). */
  events: { bounds: EventStoreBounds; budgets: EventBudget[] };
};

export async function openMcpSession(o: Open): Promise<McpSession> {
  const { StreamableHTTPServerTransport } =
    await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const lifetime = new AbortController();
  // The pod and the member come from the token, as they do for any SDK client with only a token.
  const agent = new PodAgent(
    new PodwatchClient({
      url: o.loopbackUrl,
      token: o.owner.secret,
      podId: o.owner.podId,
      actor: o.owner.memberId,
    }),
  );
  // No evidence root: a remote client's files are not on this machine, so there is no submit_evidence.
  const server = await createMcpServer(agent, lifetime.signal);
  const events = new SessionEventStore(o.events.bounds, o.events.budgets);
  const session: McpSession = {
    id: "",
    owner: o.owner,
    server,
    events,
    lifetime,
    lastSeen: Date.now(),
    inFlight: 0,
    lastResumeAt: 0,
    transport: null as never,
  };
  session.transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: o.newId,
    eventStore: events,
    keepAliveMs: KEEP_ALIVE_MS,
    onsessioninitialized: (id) => {
      session.id = id;
      o.onInitialized(session);
    },
    onsessionclosed: () => o.onEnded(session),
  });
  session.transport.onclose = () => {
    lifetime.abort();
    o.onEnded(session);
  };
  try {
    await server.connect(session.transport);
  } catch (e) {
    events.release(); // never a session: its store leaves the shared budgets
    throw e;
  }
  return session;
}

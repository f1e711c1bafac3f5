// Builds the whole server: store, write path, access, agent API, Next and
// Socket.IO on one port. Used by server/main.ts, the integration tests and the benchmark.
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { hostUrl, type Config } from "./config";
import { createAppContext, publishAppContext, type AppContext } from "./app-context";
import { PRODUCTION_KNOBS, type TestKnobs } from "./test-knobs";
import { openStore } from "./db/open-store";
import { busNodeName } from "./db/commit-notice";
import { dataDir } from "./data-dir";
import { createAccessContext } from "./access/access-context";
import { installationAuthSecret, persistentSecret } from "./access/secrets";
import { installationVapidKeys, vapidSubject } from "./notify/vapid-keys";
import { openBlobStore } from "./blobs/open-blob-store";
import { handleApi } from "./http/api-routes";
import { holdBody, WEB_MAX_BODY_BYTES } from "./http/body-limit";
import { holdDuringStart } from "./http/hold-during-start";
import { applyPageNonce, securityHeaders } from "./http/security-headers";
import { attachSocketServer } from "./realtime/socket-server";
import { startBackground, type BackgroundOptions } from "./background";
import type { OutboxConsumer } from "./outbox/outbox";
import { createMcpDoor, isMcpRequest, type McpDoor } from "./http/mcp-door";
import type { McpLimits } from "./mcp/mcp-sessions";
import { loopbackUrl } from "./mcp/loopback-url";
import { RequestsInFlight } from "./cluster/requests-in-flight";
import { sendSocketsElsewhere } from "./realtime/send-sockets-elsewhere";

export const ROOT = join(import.meta.dirname, "..");

/**
 * `drain`: stop being ready, send sockets and MCP sessions elsewhere, end long-polls, and wait
 * (at most config.drainMs) for the requests in flight; `close` after it (server/main.ts on SIGTERM).
 */
export type RunningServer = {
  app: AppContext;
  mcp: McpDoor;
  url: string;
  httpServer: HttpServer;
  drain: () => Promise<void>;
  close: () => Promise<void>;
};
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * For tests and benchmarks only (server/main.ts passes none): `outboxConsumers`: extra consumers registered before
 * the outbox starts; `mcp`: the remote MCP sessions' bounds and timers; `background`: its leases' timings;
 * `knobs`: shorter deadlines and retries, loopback push services (server/test-knobs.ts).
 */
export type StartOptions = {
  outboxConsumers?: OutboxConsumer[];
  mcp?: Partial<McpLimits>;
  background?: BackgroundOptions;
  knobs?: Partial<TestKnobs>;
};

export async function startServer(initial: Config, options: StartOptions = {}): Promise<RunningServer> {
  // Before listening: a server that cannot have its own secret must not start at all. On PostgreSQL
  // the secret is the installation's (shared by every node), read below once the database is open.
  const authSecret =
    initial.authSecret ??
    (initial.databaseUrl.startsWith("file:")
      ? persistentSecret(join(dataDir(initial.databaseUrl), "auth-secret"))
      : undefined);
  const starting = holdDuringStart();
  const httpServer = createServer(starting.handle);
  httpServer.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(initial.port, initial.host, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  // With PORT=0 (tests) the real port is known only now: the public URL and trusted origins follow it.
  const config = initial.port === port ? { ...initial } : withPort(initial, port);
  config.authSecret = authSecret;

  // The bus skips its own commits' notifications: the store signs them with the bus's name.
  const busNode = busNodeName(config.nodeId);
  const store = await openStore(config.databaseUrl, {
    sqliteSync: config.sqliteSync,
    node: busNode,
    poolMax: config.pgPoolMax,
    snapshotEvery: config.snapshotEvery,
  });
  if (store.kind === "postgres") {
    // Every node must sign sessions and pushes alike (an environment value still wins).
    config.authSecret = await installationAuthSecret(
      store,
      join(dataDir(config.databaseUrl), "auth-secret"),
      config.authSecret,
    );
    config.vapid = await installationVapidKeys(store, join(dataDir(config.databaseUrl), "vapid-keys.json"), {
      ...config.vapid,
      subject: vapidSubject(config.vapid.subject, config.publicUrl),
    });
  }
  const app = await createAppContext(
    config,
    store,
    createAccessContext(config, store),
    await openBlobStore(config, store),
    busNode,
    { ...PRODUCTION_KNOBS, ...options.knobs },
  );
  publishAppContext(app);

  let nextHandle: Handler | null = null;
  let closeNext = async () => {};
  if (initial.web) {
    const { default: next } = await import("next");
    const nextApp = next({ dev: config.dev, dir: ROOT, hostname: config.host, port });
    await nextApp.prepare();
    const handle = nextApp.getRequestHandler();
    // Every page Next renders gets its own script nonce (Next reads it from the request's CSP).
    nextHandle = (req, res) => {
      applyPageNonce(req, res, { dev: config.dev });
      void handle(req, res);
    };
    closeNext = () => nextApp.close?.() ?? Promise.resolve();
  }
  const io = attachSocketServer(httpServer, app);
  for (const consumer of options.outboxConsumers ?? []) app.outbox.register(consumer);
  const stopBackground = startBackground(app, options.background);
  // Remote MCP: its tools call the agent API of this very server, over loopback.
  const mcp = createMcpDoor(app, loopbackUrl(config.host, port), options.mcp);
  const inFlight = new RequestsInFlight();
  const handler: Handler = (req, res) => {
    securityHeaders(res);
    inFlight.track(res);
    if (app.drain.draining) res.setHeader("connection", "close"); // no keep-alive for later requests: they belong on another node
    if (isMcpRequest(req)) return mcp.handle(req, res);
    if (handleApi(app, req, res)) return;
    // Pages and server actions: Next reads a body only once it is all in, within its own action limit.
    holdBody(req, res, WEB_MAX_BODY_BYTES, () =>
      nextHandle ? nextHandle(req, res) : void res.writeHead(404).end(),
    );
  };
  starting.ready(handler);

  return {
    app,
    mcp,
    url: config.publicUrl,
    httpServer,
    drain: async () => {
      app.drain.begin();
      sendSocketsElsewhere(io);
      await mcp.close(); // its sessions live in this process: their clients start new ones on a node that stays
      await inFlight.settled(config.drainMs);
    },
    close: async () => {
      // io.close() also closes the HTTP server, which lets requests in flight finish. A socket
      // that connected but never sent a request would hold that open forever: cut the rest after a grace period.
      const closed = new Promise<void>((r) => io.close(() => r()));
      // After a drain, what is still open has had its config.drainMs already.
      const grace = setTimeout(() => httpServer.closeAllConnections(), app.drain.draining ? 0 : 1500);
      await mcp.close(); // ends the MCP sessions' streams and waits, which would otherwise hold their requests open
      await closed;
      clearTimeout(grace);
      await closeNext();
      await stopBackground();
      await app.bus.close();
      await store.close();
    },
  };
}

function withPort(c: Config, port: number): Config {
  const publicUrl = hostUrl(c.host, port);
  return { ...c, port, publicUrl, trustedOrigins: [publicUrl, `http://localhost:${port}`] };
}

// Builds the whole server: store, write path, agent API, Next and Socket.IO on
// one port. Used by server/main.ts, the integration tests and the benchmark.
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Config } from "./config";
import { createAppContext, publishAppContext, type AppContext } from "./app-context";
import { openStore } from "./db/open-store";
import { handleApi } from "./http/api-routes";
import { attachSocketServer } from "./realtime/socket-server";

export const ROOT = join(import.meta.dirname, "..");

export type RunningServer = { app: AppContext; url: string; httpServer: HttpServer; close: () => Promise<void> };

export async function startServer(config: Config, opts: { web?: boolean } = {}): Promise<RunningServer> {
  const store = await openStore(config.databaseUrl, { sqliteSync: config.sqliteSync });
  const app = createAppContext(config, store);
  publishAppContext(app);

  let nextHandle: ((req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => Promise<void>) | null = null;
  let closeNext = async () => {};
  if (opts.web !== false) {
    const { default: next } = await import("next");
    const nextApp = next({ dev: config.dev, dir: ROOT, hostname: config.host, port: config.port });
    await nextApp.prepare();
    nextHandle = nextApp.getRequestHandler();
    closeNext = () => nextApp.close?.() ?? Promise.resolve();
  }

  const httpServer = createServer((req, res) => {
    if (handleApi(app, req, res)) return;
    if (nextHandle) return void nextHandle(req, res);
    res.writeHead(404).end();
  });
  httpServer.keepAliveTimeout = 65_000;
  const io = attachSocketServer(httpServer, app);

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(config.port, config.host, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  const url = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`;

  return {
    app,
    url,
    httpServer,
    close: async () => {
      await new Promise<void>((r) => io.close(() => r()));
      httpServer.closeAllConnections();
      await closeNext();
      await store.close();
    },
  };
}

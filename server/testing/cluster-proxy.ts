// A TCP proxy in front of the cluster's nodes, as a reverse proxy with health checks would
// route: each new connection goes to the first node whose /readyz answers 200 at that moment
// (a draining or dead node does not). Connections already made stay where they are until
// either side closes. Tests put clients behind it to follow the proxy's choice on reconnect.
import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export type FailoverProxy = { url: string; close: () => Promise<void> };

/** `upstreams`: the nodes' base URLs in order of preference, read at each new connection. */
export async function startFailoverProxy(upstreams: () => string[]): Promise<FailoverProxy> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.once("close", () => open.delete(client));
    client.on("error", () => client.destroy());
    client.pause();
    void pickReady(upstreams()).then((target) => {
      if (!target || client.destroyed) return void client.destroy();
      const upstream = connect(Number(target.port), target.hostname);
      open.add(upstream);
      upstream.once("close", () => (open.delete(upstream), client.destroy()));
      upstream.on("error", () => upstream.destroy());
      client.once("close", () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

async function pickReady(urls: string[]): Promise<URL | null> {
  for (const url of urls) {
    const ready = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return new URL(url);
  }
  return null;
}

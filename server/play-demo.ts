// The live demo pod (PODWATCH_DEMO=1) is played by one node at a time, the holder of the demo
// lease: two simulators on one pod would each revoke the other's tokens at start. A node that
// gets the lease later (the player died or stopped) starts playing then, where the pod's tape
// left off. Its own lease, not the timekeeper's: the demo plays through its node's HTTP API and
// has nothing to do with the scheduler; it costs a connection per node only when the demo is on.
import type { AddressInfo } from "node:net";
import type { Config } from "./config";
import type { RunningServer } from "./start-server";
import { startDemo } from "../agent/demo/start-demo";
import { LeaderLease } from "./cluster/leader-lease";
import { advisoryLocks } from "./db/advisory-locks";
import { loopbackUrl } from "./mcp/loopback-url";

/** Starts trying for the demo lease; the lease's stop() ends the demo on this node. */
export function playDemoOnOneNode(server: RunningServer, config: Config): LeaderLease {
  const lease = new LeaderLease({
    databaseUrl: config.databaseUrl,
    lockKey: advisoryLocks.demo,
    role: "demo",
    nodeId: config.nodeId,
    lead: async () => {
      // The simulator calls this node over loopback: behind a proxy the public URL may not resolve
      // from here (in compose.yaml it is the host's localhost:8080, which no container listens on).
      const { port } = server.httpServer.address() as AddressInfo;
      const demo = await startDemo({
        baseUrl: loopbackUrl(config.host, port),
        intervalMs: config.demoIntervalMs,
        adminKey: server.app.access.internalKey,
        watchers: [config.adminEmail],
      });
      console.log(`podwatch: live demo pod at ${server.url}/pods/${demo.podId}`);
      return () => demo.stop();
    },
  });
  lease.start();
  return lease;
}

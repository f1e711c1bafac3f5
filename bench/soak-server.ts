// The server under `npm run soak`, in a process of its own so that its figures
// are its own: the real server (configured by the environment, like
// `npm start`) plus an IPC channel on which it reports its memory and
// event-loop delay when asked.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { readConfig } from "../server/config";
import { startServer } from "../server/start-server";

/** `connections`: open TCP connections (sockets, stalled ones not yet dropped, keep-alive HTTP). */
export type ServerStats = {
  rss: number;
  heapUsed: number;
  external: number;
  loopP99Ms: number;
  loopMaxMs: number;
  overallLoopP99Ms: number;
  connections: number;
};

const server = await startServer(readConfig());
const sinceLast = monitorEventLoopDelay({ resolution: 10 });
const overall = monitorEventLoopDelay({ resolution: 10 });
sinceLast.enable();
overall.enable();
const ms = (ns: number) => ns / 1e6;

process.on("message", async (msg) => {
  if (msg === "stats") {
    const connections = await new Promise<number>((resolve) =>
      server.httpServer.getConnections((_e, n) => resolve(n)),
    );
    const m = process.memoryUsage();
    const stats: ServerStats = {
      rss: m.rss,
      heapUsed: m.heapUsed,
      external: m.external,
      loopP99Ms: ms(sinceLast.percentile(99)),
      loopMaxMs: ms(sinceLast.max),
      overallLoopP99Ms: ms(overall.percentile(99)),
      connections,
    };
    sinceLast.reset();
    process.send!({ type: "stats", stats });
  } else if (msg === "stop") {
    void server.close().then(() => process.exit(0));
  }
});
process.on("disconnect", () => process.exit(0)); // the soak driver went away: never linger
process.send!({ type: "ready", url: server.url });

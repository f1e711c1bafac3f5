// The process `npm start` runs (server/main.ts): build if needed, migrate, serve, keep a live demo
// pod going, drain on SIGTERM. Tests that spawn a server run it with their knobs (server/testing/test-main.ts).
import { readConfig } from "./config";
import { ensureBuild } from "./ensure-build";
import { startServer, ROOT, type StartOptions } from "./start-server";
import { playDemoOnOneNode } from "./play-demo";
import { bootstrapAdmin } from "./access/bootstrap-admin";

/** Serves until SIGTERM or SIGINT; exits the process when it cannot start. */
export function runServer(options: StartOptions = {}): Promise<void> {
  return serve(options).catch((e) => {
    console.error(`podwatch: failed to start: ${e instanceof Error ? e.message : e}`);
    process.exit(1);
  });
}

async function serve(options: StartOptions) {
  const config = readConfig();
  if (config.web && !config.dev) await ensureBuild(ROOT);
  const server = await startServer(config, options);
  const first = await bootstrapAdmin(server.app.access, config.adminEmail);
  // One node plays the demo at a time (play-demo.ts); it says where once it starts.
  const demo = config.demo ? playDemoOnOneNode(server, config) : null;
  console.log(`podwatch: listening on ${server.url} (database: ${server.app.store.kind})`);
  if (first) {
    console.log(
      `podwatch: first start — sign in at ${server.url}/sign-in as ${first.email} with the password ${first.password}`,
    );
    console.log("podwatch: (shown once; choose your own at /account, invite more people at /people)");
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`podwatch: ${signal}, draining (up to ${config.drainMs} ms), then shutting down`);
    // Whatever hangs, the node is gone shortly after its drain: an orchestrator waits for no longer.
    setTimeout(
      () => (console.error("podwatch: shutdown overran its drain; exiting"), process.exit(1)),
      config.drainMs + 5000,
    ).unref();
    await demo?.stop();
    await server.drain();
    await server.close();
    console.log("podwatch: drained and closed");
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

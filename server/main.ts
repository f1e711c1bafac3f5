// `npm start`: build if needed, migrate, serve, keep a live demo pod going.
import { readConfig } from "./config";
import { ensureBuild } from "./ensure-build";
import { startServer, ROOT } from "./start-server";
import { playDemoOnOneNode } from "./play-demo";
import { bootstrapAdmin } from "./access/bootstrap-admin";

async function main() {
  const config = readConfig();
  if (config.web && !config.dev) await ensureBuild(ROOT);
  const server = await startServer(config);
  const first = await bootstrapAdmin(server.app.access, config.adminEmail);
  // One node plays the demo at a time (play-demo.ts); it says where once it starts.
  const demo = config.demo ? playDemoOnOneNode(server, config) : null;
  console.log(`podwatch: listening on ${server.url} (database: ${server.app.store.kind})`);
  if (first) {
    console.log(`podwatch: first start — sign in at ${server.url}/sign-in as ${first.email} with the password ${first.password}`);
    console.log("podwatch: (shown once; choose your own at /account, invite more people at /people)");
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`podwatch: ${signal}, shutting down`);
    await demo?.stop();
    await server.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((e) => {
  console.error(`podwatch: failed to start: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});

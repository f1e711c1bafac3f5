// `npm start`: build if needed, migrate, serve, keep a live demo pod going.
import { readConfig } from "./config";
import { ensureBuild } from "./ensure-build";
import { startServer, ROOT } from "./start-server";
import { startDemo } from "./demo/start-demo";

async function main() {
  const config = readConfig();
  if (config.web && !config.dev) ensureBuild(ROOT);
  const server = await startServer(config, { web: config.web });
  const demo = config.demo ? await startDemo(server.url, config.demoIntervalMs) : null;
  console.log(`podwatch: listening on ${server.url} (database: ${server.app.store.kind})`);
  if (demo) console.log(`podwatch: live demo pod at ${server.url}/pods/${demo.podId}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`podwatch: ${signal}, shutting down`);
    demo?.stop();
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

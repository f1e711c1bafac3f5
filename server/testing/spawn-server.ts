// Runs `server/main.ts` as a real child process (for crash tests and the benchmark).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
export const SPAWN_ADMIN_TOKEN = "spawned-admin-token-0123456789abcdef";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

export type SpawnedServer = { url: string; child: ChildProcess; output: () => string; stop: (signal?: NodeJS.Signals) => Promise<void> };

export async function spawnServer(env: Record<string, string>, opts: { port?: number; web?: boolean } = {}): Promise<SpawnedServer> {
  const port = opts.port ?? (await freePort());
  // node itself with tsx's loader, not the tsx CLI: a SIGKILL must hit the server, not a wrapper.
  const child = spawn(process.execPath, [...(process.env.PODWATCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []), "--import", "tsx", join(ROOT, "server", "main.ts")], {
    cwd: ROOT,
    env: { ...process.env, PODWATCH_DEMO: "0", PODWATCH_WEB: opts.web ? "1" : "0", HOST: "127.0.0.1", PORT: String(port), PODWATCH_ADMIN_TOKEN: SPAWN_ADMIN_TOKEN, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.web ? 400_000 : 120_000); // the first start with the web UI builds it
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${out}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill(signal);
    });
  return { url, child, output: () => out, stop };
}

// Runs `server/main.ts` as a real child process (crash tests, the cluster tests, the benchmark);
// `server/testing/test-main.ts` instead when the test sets knobs (test-knobs.ts), which main.ts never reads.
// It listens on a port of its own choosing (PORT=0) unless told one, and says which in its
// "listening on" line; it is ready when /readyz says so. Nothing of a child keeps the test
// process alive, and every child still running is SIGKILLed when the test process exits however
// it exits: a failing test leaves no orphan.
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { eventually } from "./eventually";
import { KNOB_NAMES } from "./test-knobs";

const ROOT = join(import.meta.dirname, "..", "..");
export const SPAWN_ADMIN_TOKEN = "spawned-admin-token-0123456789abcdef";
/** How long stop() waits for the exit before SIGKILL. */
const EXIT_MS = 15_000;

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type SpawnedServer = {
  url: string;
  child: ChildProcess;
  /** Everything the server printed, stdout and stderr interleaved. */
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<Exit>;
  /** Sends `signal` (SIGTERM by default) and waits, bounded, for the exit; a server that outlives the wait is SIGKILLed. */
  stop: (signal?: NodeJS.Signals) => Promise<Exit>;
};

const live = new Set<ChildProcess>();
let reaperInstalled = false;
function reapOnExit() {
  if (reaperInstalled) return;
  reaperInstalled = true;
  process.once("exit", () => {
    for (const child of live) child.kill("SIGKILL");
  });
}

/** `name` labels the server in errors; `port` pins the port (a restart on the same address); `web` serves the UI (the first start builds it). */
export async function spawnServer(
  env: Record<string, string>,
  opts: { port?: number; web?: boolean; name?: string } = {},
): Promise<SpawnedServer> {
  reapOnExit();
  const name = opts.name ?? "the server";
  const entry = KNOB_NAMES.some((name) => name in env)
    ? join(ROOT, "server", "testing", "test-main.ts")
    : join(ROOT, "server", "main.ts");
  // node itself with tsx's loader, not the tsx CLI: a signal must hit the server, not a wrapper.
  const child = spawn(
    process.execPath,
    [
      ...(process.env.PODWATCH_PROFILE
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.PODWATCH_PROFILE_DIR ?? "/tmp/prof"}`]
        : []),
      "--import",
      "tsx",
      entry,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PODWATCH_DEMO: "0",
        PODWATCH_WEB: opts.web ? "1" : "0",
        HOST: "127.0.0.1",
        PORT: String(opts.port ?? 0),
        PODWATCH_ADMIN_TOKEN: SPAWN_ADMIN_TOKEN,
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  live.add(child);
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  let exit: Exit | null = null;
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => (live.delete(child), resolve((exit = { code, signal })))),
  );
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    // Held (not unref'd) while we wait: the child itself is unref'd and would not keep us here for its exit.
    const timer = setTimeout(() => child.kill("SIGKILL"), EXIT_MS);
    const result = await exited;
    clearTimeout(timer);
    return result;
  };

  const startMs = opts.web ? 400_000 : 120_000; // the first start with the web UI builds it
  /** Reads `probe` until it gives a value; a server that exits meanwhile fails at once. */
  const until = <T>(what: string, probe: () => Promise<T | null>) =>
    eventually(
      async () => {
        if (exit) throw new Error(`waiting for ${name} ${what}: it exited (${JSON.stringify(exit)})`);
        return probe();
      },
      (v) => v !== null,
      `${name} ${what}`,
      startMs,
    ) as Promise<T>;
  try {
    const url = await until(
      "to say where it listens",
      async () => /podwatch: listening on (http:\/\/\S+)/.exec(out)?.[1] ?? null,
    );
    await until("to be ready", async () =>
      (await fetch(`${url}/readyz`).catch(() => null))?.ok ? true : null,
    );
    return { url, child, output: () => out, exited, stop };
  } catch (e) {
    await stop("SIGKILL");
    throw new Error(`${e instanceof Error ? e.message : e}\n--- ${name} printed:\n${out}`);
  }
}

// The idle memory targets: the server's resident memory once it has started and settled, before
// any load (the demo off), with the web UI on as an operator runs it, and with the agent API alone
// (PODWATCH_WEB=0) on a server of its own.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../server/testing/spawn-server";
import type { Figure } from "./figures";
import { processRssMiB } from "./load/process-usage";

const SETTLE_MS = 3000;

export async function idleRssFigure(pid: number, web = true): Promise<Figure> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const rss = processRssMiB(pid);
  return {
    key: web ? "rss.idle" : "rss.idle.api",
    label: `server RSS idle (${web ? "web UI on" : "API only"}, demo off, ${SETTLE_MS / 1000} s after ready)`,
    value: rss === null ? null : Math.round(rss),
    unit: "MiB",
    target: { atMost: web ? 300 : 200 },
    ...(rss === null ? { note: "no /proc/<pid>/status here (not Linux)" } : {}),
  };
}

/** The API-only figure: a fresh server without the web UI, started, measured and stopped here. */
export async function apiOnlyIdleRssFigure(): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-rss-"));
  const server = await spawnServer(
    { DATABASE_URL: `file:${join(dir, "idle.db")}` },
    { name: "the API-only server" },
  );
  try {
    return await idleRssFigure(server.child.pid!, false);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

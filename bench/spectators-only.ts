// `npx tsx bench/spectators-only.ts [fan-out] [live] [catch-up]`: only the spectator figures of
// `npm run bench` (bench/spectators.ts), against a server of their own (temp SQLite database, full
// durability). PODWATCH_PROFILE=1 writes the server's CPU profile to /tmp/prof at its exit.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer } from "../server/testing/spawn-server";
import { met } from "./figures";
import { agent } from "./http";
import { benchSpectators, type SpectatorScenario } from "./spectators";

const only = process.argv.slice(2) as SpectatorScenario[];
const dir = mkdtempSync(join(tmpdir(), "podwatch-spectators-"));
const server = await spawnServer({ DATABASE_URL: `file:${join(dir, "bench.db")}` });
try {
  const figures = await benchSpectators(server.url, { serverPid: server.child.pid!, only });
  console.log("\npodwatch spectator benchmark (server and load generator on this machine)\n");
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) {
    const verdict = met(f) === null ? "" : met(f) ? "  ok" : "  MISSED";
    const bound = f.target
      ? ` (target ${f.target.atMost !== undefined ? `≤ ${f.target.atMost}` : `≥ ${f.target.atLeast}`})`
      : "";
    console.log(`  ${f.label.padEnd(width)}  ${f.value ?? "n/a"} ${f.unit}${bound}${verdict}`);
    if (f.note) console.log(`  ${"".padEnd(width)}    ${f.note}`);
  }
  console.log("");
} finally {
  await server.stop();
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}

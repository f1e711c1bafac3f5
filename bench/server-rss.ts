// The idle memory target: the server's resident memory once it has started and settled,
// before any load (the demo off, the web UI on as an operator runs it).
import type { Figure } from "./figures";
import { processRssMiB } from "./load/process-usage";

const SETTLE_MS = 3000;

export async function idleRssFigure(pid: number): Promise<Figure> {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  const rss = processRssMiB(pid);
  return {
    key: "rss.idle",
    label: `server RSS idle (web UI on, demo off, ${SETTLE_MS / 1000} s after ready)`,
    value: rss === null ? null : Math.round(rss),
    unit: "MiB",
    target: { atMost: 300 },
    ...(rss === null ? { note: "no /proc/<pid>/status here (not Linux)" } : {}),
  };
}

// `npx tsx bench/profile-summary.ts <file.cpuprofile> [rows]`: where a V8 CPU profile's time went.
// Self time summed per function (name and file:line) and per package/folder, highest first.
// Profiles come from `node --cpu-prof`; spawnServer adds it when PODWATCH_PROFILE=1
// (written to /tmp/prof when the server exits), e.g. under bench/spectators-only.ts.
import { readFileSync } from "node:fs";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error("usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [rows]");
const rows = Number(rowsArg ?? 40);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;

// Self time of a sample = the delta to the next sample, attributed to the sampled (leaf) node.
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) {
  const dt = profile.timeDeltas[i + 1] ?? 0;
  selfUs.set(profile.samples[i]!, (selfUs.get(profile.samples[i]!) ?? 0) + dt);
}
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, "")
    .replace(/^.*\/node_modules\//, "~/")
    .replace(/^.*\/work\/main\//, "");
const where = (n: Node) =>
  n.callFrame.url ? `${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : "";
const area = (n: Node) => {
  const url = shortUrl(n.callFrame.url);
  if (!url) return `(${n.callFrame.functionName || "native"})`;
  if (url.startsWith("~/"))
    return url
      .split("/")
      .slice(0, url.startsWith("~/@") ? 3 : 2)
      .join("/");
  if (url.startsWith("node:")) return url;
  return url.split("/").slice(0, 2).join("/");
};

const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
let total = 0;
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const fn = `${n.callFrame.functionName || "(anonymous)"} ${where(n)}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  byArea.set(area(n), (byArea.get(area(n)) ?? 0) + us);
  total += us;
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows))
    console.log(
      `  ${(us / 1000).toFixed(0).padStart(8)} ms  ${((us / total) * 100).toFixed(1).padStart(5)}%  ${k}`,
    );
};
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`,
);
print("self time by area", byArea);
print("self time by function", byFunction);

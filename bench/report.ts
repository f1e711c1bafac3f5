// How `npm run bench` prints its figures: a header saying what machine ran them, then each target
// figure with its bound, whether it was met and the previous run's value beside it. The previous
// run is bench-results/last.json (git-ignored), rewritten after every complete run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { met, type Figure } from "./figures";

export const LAST_RUN = join(import.meta.dirname, "..", "bench-results", "last.json");

/** loadAverage: the machine's 1-minute load when the run began; other work on these cores lowers every rate. */
export type Run = {
  at: string;
  commit: string;
  cores: number;
  cpu: string;
  node: string;
  durability: string;
  loadAverage?: number;
  figures: Figure[];
};

export function describeMachine(): Omit<Run, "figures"> {
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], {
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // Not a git checkout (a release tarball): the commit stays unknown.
  }
  return {
    at: new Date().toISOString(),
    commit,
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    node: process.version,
    durability: process.env.PODWATCH_SQLITE_SYNC ?? "full",
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
  };
}

export function readLastRun(): Run | null {
  if (!existsSync(LAST_RUN)) return null;
  try {
    return JSON.parse(readFileSync(LAST_RUN, "utf8")) as Run;
  } catch {
    return null; // unreadable: as if there were none
  }
}

export function saveRun(run: Run): void {
  mkdirSync(dirname(LAST_RUN), { recursive: true });
  writeFileSync(LAST_RUN, `${JSON.stringify(run, null, 2)}\n`);
}

const format = (v: number | null, unit: string) =>
  v === null
    ? "n/a"
    : `${Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en") : String(Math.round(v * 100) / 100)} ${unit}`;
const bound = (f: Figure) =>
  !f.target
    ? ""
    : f.target.atLeast !== undefined
      ? `≥ ${format(f.target.atLeast, f.unit)}`
      : `≤ ${format(f.target.atMost!, f.unit)}`;
const verdict = (f: Figure) =>
  ({ true: "yes", false: "NO", null: "" })[String(met(f)) as "true" | "false" | "null"];

function change(now: Figure, before: Figure | undefined): string {
  if (!before) return "—";
  const was = format(before.value, before.unit);
  if (now.value === null || before.value === null || before.value === 0 || before.unit !== now.unit)
    return was;
  const pct = ((now.value - before.value) / Math.abs(before.value)) * 100;
  const rounded = Math.round(pct);
  return `${was} (${rounded === 0 ? "±0" : rounded > 0 ? `+${rounded}` : rounded}%)`;
}

export function printRun(run: Run, previous: Run | null): void {
  const m = run;
  console.log(`\npodwatch benchmark — server and load generator on this machine (they share its cores)`);
  console.log(
    `  ${m.cores} cores (${m.cpu}), node ${m.node}, SQLite durability: ${m.durability}, commit ${m.commit}, load average at start ${m.loadAverage}`,
  );
  console.log(
    `  previous run: ${previous ? `${previous.at}, commit ${previous.commit}, ${previous.cores} cores, durability ${previous.durability}, load average ${previous.loadAverage ?? "?"}` : "none (bench-results/last.json)"}\n`,
  );
  const before = new Map(previous?.figures.map((f) => [f.key, f]));
  const rows = [
    ["figure", "this run", "target", "met?", "previous run (change)"],
    ...run.figures.map((f) => [
      f.label,
      format(f.value, f.unit),
      bound(f),
      verdict(f),
      change(f, before.get(f.key)),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ")}`;
  console.log(line(rows[0]!));
  console.log(`  ${widths.map((w) => "-".repeat(w)).join("  ")}`);
  run.figures.forEach((f, i) => {
    console.log(line(rows[i + 1]!));
    if (f.note) console.log(`      ${f.note}`);
  });
  console.log("");
}

// PostgreSQL for the cluster figures: BENCH_DATABASE_URL or TEST_DATABASE_URL when set (a server
// the bench may create and drop databases on); else a throwaway cluster made with initdb on a
// free loopback port in a temp folder, removed after (as .ci/run does); else a reason to skip.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export type BenchPostgres = { url: string; where: string; stop: () => void } | { skipped: string };

function newestInitdb(): string | null {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb")));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });

export async function benchPostgres(): Promise<BenchPostgres> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, where: `the server at ${new URL(given).host}`, stop: () => {} };
  const bin = newestInitdb();
  if (!bin)
    return {
      skipped:
        "no PostgreSQL: set BENCH_DATABASE_URL (or TEST_DATABASE_URL), or install PostgreSQL so initdb is in /usr/lib/postgresql/*/bin",
    };
  const dir = mkdtempSync(join(tmpdir(), "podwatch-bench-pg-"));
  const port = await freePort();
  // PostgreSQL refuses to run as root: there, its own system user runs it (as in .ci/run).
  const root = userInfo().uid === 0;
  const run = (args: string[]) => {
    if (!root) return execFileSync(args[0]!, args.slice(1), { stdio: "ignore" });
    return execFileSync(
      "su",
      ["postgres", "-s", "/bin/sh", "-c", args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ")],
      { stdio: "ignore" },
    );
  };
  try {
    if (root)
      chownSync(
        dir,
        Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
        Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
      );
    run([join(bin, "initdb"), "-D", dir, "-U", "postgres", "--auth=trust"]);
    run([
      join(bin, "pg_ctl"),
      "-D",
      dir,
      "-o",
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
      "-l",
      join(dir, "server.log"),
      "-w",
      "start",
    ]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return {
      skipped: `could not start a throwaway PostgreSQL with ${bin}/initdb: ${e instanceof Error ? e.message.split("\n")[0] : e}`,
    };
  }
  const stop = () => {
    try {
      run([join(bin, "pg_ctl"), "-D", dir, "-m", "immediate", "stop"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    where: `a throwaway PostgreSQL ${bin.split("/").at(-2)} (initdb, default settings)`,
    stop,
  };
}

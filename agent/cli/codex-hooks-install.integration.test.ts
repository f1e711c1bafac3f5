// `podwatch hooks install|uninstall --agent codex` as a person runs it: the real bin, with a home
// and a CODEX_HOME of its own, on real hooks.json files.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PODWATCH_BIN, type CliResult } from "../../server/testing/run-cli";
import { codexHooks } from "../hooks/codex-hooks";

function podwatch(args: string[], o: { cwd: string; home: string; codexHome?: string }): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = { NODE_ENV: "production", PATH: process.env.PATH, HOME: o.home };
  if (o.codexHome) env.CODEX_HOME = o.codexHome;
  const child = spawn(process.execPath, [PODWATCH_BIN, ...args], {
    cwd: o.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const folders = () => {
  const root = mkdtempSync(join(tmpdir(), "pw-codex-install-"));
  const o = { cwd: join(root, "project"), home: join(root, "home"), codexHome: join(root, "codex") };
  for (const dir of Object.values(o)) mkdirSync(dir);
  return o;
};
const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const theirs = {
  description: "team hooks",
  hooks: { Stop: [{ hooks: [{ type: "command", command: "./notify-me.sh", timeout: 5 }] }] },
};

describe("podwatch hooks install --agent codex", () => {
  it("merges into $CODEX_HOME/hooks.json beside the user's hooks, once; uninstall leaves theirs", async () => {
    const o = folders();
    const file = join(o.codexHome, "hooks.json");
    writeFileSync(file, JSON.stringify(theirs));

    const dry = await podwatch(["hooks", "install", "--agent", "codex", "--dry-run"], o);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("+");
    expect(read(file)).toEqual(theirs);

    const first = await podwatch(["hooks", "install", "--agent", "codex"], o);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("/hooks"); // the trust step a person must still take
    const installed = read(file);
    expect(installed.description).toBe("team hooks");
    expect(installed.hooks.Stop).toEqual([...theirs.hooks.Stop, ...codexHooks().Stop!]);
    expect(installed.hooks.PreToolUse).toEqual(codexHooks().PreToolUse);

    const again = await podwatch(["hooks", "install", "--agent", "codex"], o);
    expect(again.stdout).toContain("already has podwatch's hooks");
    expect(read(file)).toEqual(installed);

    const gone = await podwatch(["hooks", "uninstall", "--agent", "codex"], o);
    expect(gone.code, gone.stderr).toBe(0);
    expect(read(file)).toEqual(theirs);
  });

  it("without CODEX_HOME, ~/.codex; --scope project, .codex in the folder; other scopes and --http refused", async () => {
    const { cwd, home } = folders();
    expect((await podwatch(["hooks", "install", "--agent", "codex"], { cwd, home })).code).toBe(0);
    expect(read(join(home, ".codex", "hooks.json")).hooks.SessionStart).toEqual(codexHooks().SessionStart);
    expect(
      (await podwatch(["hooks", "install", "--agent", "codex", "--scope", "project"], { cwd, home })).code,
    ).toBe(0);
    expect(existsSync(join(cwd, ".codex", "hooks.json"))).toBe(true);
    for (const args of [["--scope", "local"], ["--http"], ["--agent", "gpt"]]) {
      const r = await podwatch(["hooks", "install", "--agent", "codex", ...args], { cwd, home });
      expect(r.code, args.join(" ")).toBe(2);
    }
    expect(existsSync(join(cwd, ".claude"))).toBe(false);
  });
});

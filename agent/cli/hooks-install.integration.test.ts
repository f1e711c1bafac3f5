// `podwatch hooks install|uninstall` as a person runs it: the real bin, in a project folder and
// a home of its own, on real settings files.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PODWATCH_BIN, type CliResult } from "../../server/testing/run-cli";

function podwatch(
  args: string[],
  o: { cwd: string; home: string; env?: Record<string, string> },
): Promise<CliResult> {
  const child = spawn(process.execPath, [PODWATCH_BIN, ...args], {
    cwd: o.cwd,
    env: { NODE_ENV: "production", PATH: process.env.PATH, HOME: o.home, ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

const folders = () => {
  const root = mkdtempSync(join(tmpdir(), "pw-install-"));
  const cwd = join(root, "project");
  const home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  return { cwd, home };
};
const read = (path: string) => JSON.parse(readFileSync(path, "utf8"));
const userOwn = {
  permissions: { allow: ["Bash(npm test:*)"] },
  hooks: {
    PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx prettier --write" }] }],
  },
};

describe("podwatch hooks install / uninstall", () => {
  it("installs command hooks into .claude/settings.local.json, keeps the user's, and a second run changes nothing", async () => {
    const f = folders();
    const local = join(f.cwd, ".claude", "settings.local.json");
    mkdirSync(join(f.cwd, ".claude"));
    writeFileSync(local, JSON.stringify(userOwn));
    const first = await podwatch(["hooks", "install"], f);
    expect(first).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`podwatch hooks installed in ${local}`),
    });
    const s = read(local);
    expect(s.permissions).toEqual(userOwn.permissions);
    expect(s.hooks.PostToolUse).toEqual([
      userOwn.hooks.PostToolUse[0],
      { matcher: "*", hooks: [{ type: "command", command: "podwatch hook", timeout: 10 }] },
    ]);
    expect(s.hooks.PreToolUse).toEqual([
      { matcher: "*", hooks: [{ type: "command", command: "podwatch hook", timeout: 600 }] },
    ]);
    for (const event of [
      "SessionStart",
      "UserPromptSubmit",
      "PermissionRequest",
      "PostToolUseFailure",
      "Notification",
      "Stop",
      "SubagentStop",
      "PreCompact",
      "SessionEnd",
    ])
      expect(s.hooks[event]).toHaveLength(1);
    const bytes = readFileSync(local, "utf8");
    const again = await podwatch(["hooks", "install"], f);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining("nothing to change") });
    expect(readFileSync(local, "utf8")).toBe(bytes);
    // Uninstall gives the user's file back as it was.
    expect((await podwatch(["hooks", "uninstall"], f)).code).toBe(0);
    expect(read(local)).toEqual(userOwn);
    expect(await podwatch(["hooks", "uninstall"], f)).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("nothing to change"),
    });
  });

  it("--http --dry-run shows the diff and writes nothing; --http writes http hooks plus the usage reader", async () => {
    const f = folders();
    const project = join(f.cwd, ".claude", "settings.json");
    const env = { PODWATCH_URL: "http://127.0.0.1:3000" };
    const dry = await podwatch(["hooks", "install", "--http", "--scope", "project", "--dry-run"], {
      ...f,
      env,
    });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`--- /dev/null\n+++ ${project}\n@@ -0,0 +1,`);
    expect(dry.stdout).toContain('+            "url": "http://127.0.0.1:3000/api/v1/hooks/claude-code",');
    expect(dry.stdout).toContain("dry run");
    expect(existsSync(project)).toBe(false);
    const json = await podwatch(["hooks", "install", "--http", "--scope", "project", "--dry-run", "--json"], {
      ...f,
      env,
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ path: project, changed: true, written: false });

    expect((await podwatch(["hooks", "install", "--http", "--scope", "project"], { ...f, env })).code).toBe(
      0,
    );
    const s = read(project);
    expect(s.hooks.PreToolUse).toEqual([
      {
        matcher: "*",
        hooks: [
          {
            type: "http",
            url: "http://127.0.0.1:3000/api/v1/hooks/claude-code",
            headers: { Authorization: "Bearer $PODWATCH_TOKEN" },
            allowedEnvVars: ["PODWATCH_TOKEN"],
            timeout: 600,
          },
        ],
      },
    ]);
    expect(
      s.hooks.Stop.map(
        (g: { hooks: { type: string; command?: string }[] }) => g.hooks[0]!.command ?? g.hooks[0]!.type,
      ),
    ).toEqual(["http", "podwatch hook --usage-only"]);
    // Switching to the command form replaces ours; an uninstall dry run lists what would go.
    expect((await podwatch(["hooks", "install", "--scope", "project"], f)).code).toBe(0);
    expect(JSON.stringify(read(project))).not.toContain("http://127.0.0.1:3000");
    const undo = await podwatch(["hooks", "uninstall", "--scope", "project", "--dry-run"], f);
    expect(undo.stdout).toContain('-            "command": "podwatch hook",');
    expect(read(project).hooks.Stop).toHaveLength(1);
  });

  it("user scope writes ~/.claude/settings.json; an unreadable file is refused (exit 2) and left alone", async () => {
    const f = folders();
    expect(
      (
        await podwatch(
          ["hooks", "install", "--scope", "user", "--bin", "node /opt/podwatch/agent/bin/podwatch.mjs"],
          f,
        )
      ).code,
    ).toBe(0);
    expect(read(join(f.home, ".claude", "settings.json")).hooks.Stop).toEqual([
      {
        hooks: [{ type: "command", command: "node /opt/podwatch/agent/bin/podwatch.mjs hook", timeout: 10 }],
      },
    ]);
    mkdirSync(join(f.cwd, ".claude"));
    const broken = join(f.cwd, ".claude", "settings.local.json");
    writeFileSync(broken, '{ "hooks": { "Stop": [ } ');
    const r = await podwatch(["hooks", "install"], f);
    expect(r).toMatchObject({ code: 2, stderr: expect.stringContaining("is not valid JSON") });
    expect(readFileSync(broken, "utf8")).toBe('{ "hooks": { "Stop": [ } ');
    writeFileSync(broken, '{ "hooks": ["x"] }');
    expect(await podwatch(["hooks", "install"], f)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"hooks" must be an object'),
    });
    expect(await podwatch(["hooks", "install", "--scope", "everywhere"], f)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--scope takes local, project, user"),
    });
    expect(await podwatch(["hooks", "install", "--http"], f)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("PODWATCH_URL"),
    });
  });
});

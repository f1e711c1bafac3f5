// Every command explains itself, and the CLI's parsing never needs a server to say what is wrong.
import { describe, expect, it } from "vitest";
import { runCli } from "./main";
import { keyValues } from "./command";
import { COMMANDS } from "./commands";

async function run(argv: string[], env: NodeJS.ProcessEnv = {} as unknown as NodeJS.ProcessEnv) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    env,
    isTTY: false,
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe("podwatch --help", () => {
  it.each(COMMANDS.map((c) => c.name))(
    "%s --help prints its usage, options and the global flags",
    async (name) => {
      const r = await run([...name.split(" "), "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`Usage: podwatch ${name}`);
      expect(r.stdout).toContain("--json");
      const cmd = COMMANDS.find((c) => c.name === name)!;
      for (const option of Object.keys(cmd.options ?? {})) expect(r.stdout).toContain(`--${option}`);
    },
  );

  it("a group without its verb lists the verbs (exit 2); with --help, exit 0", async () => {
    for (const group of ["plan", "run", "review", "evidence", "proof", "workcell"]) {
      const bare = await run([group]);
      expect([bare.code, bare.stdout]).toEqual([2, expect.stringContaining(`Usage: podwatch ${group} <`)]);
      expect((await run([group, "--help"])).code).toBe(0);
    }
  });

  it("usage errors are exit 2, as JSON too with --json", async () => {
    expect(await run([])).toMatchObject({ code: 2, stdout: expect.stringContaining("Commands:") });
    const unknown = await run(["deploy", "--json"]);
    expect([unknown.code, JSON.parse(unknown.stdout)]).toEqual([
      2,
      { error: { code: "usage", message: expect.stringContaining('unknown command "deploy"') } },
    ]);
    const badUrl = await run(["whoami"], {
      PODWATCH_URL: "127.0.0.1:3000",
      PODWATCH_TOKEN: "t",
    } as unknown as NodeJS.ProcessEnv);
    expect([badUrl.code, badUrl.stderr]).toEqual([2, expect.stringContaining("must be an http(s) URL")]);
    expect(
      (
        await run(["run", "verify", "--run", "r", "--check", "unit=maybe"], {
          PODWATCH_URL: "http://127.0.0.1:9",
          PODWATCH_TOKEN: "t",
        } as unknown as NodeJS.ProcessEnv)
      ).code,
    ).toBe(2);
  });

  it("lists wait, which waits on an escalation by its id, with escalate's --timeout and exit codes", async () => {
    const top = await run(["--help"]);
    expect(top.stdout).toMatch(
      /\n {2}wait <escalationId> +Block until a human answers an escalation asked earlier/,
    );
    expect(top.stdout).toContain("8  timed out waiting (escalate --wait --timeout, wait --timeout)");
    expect((await run(["wait", "--help"])).stdout).toContain("--timeout SECONDS");
    expect(await run(["wait"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("wait <escalationId>"),
    });
    const env = { PODWATCH_URL: "http://127.0.0.1:9", PODWATCH_TOKEN: "t" } as unknown as NodeJS.ProcessEnv;
    expect(await run(["wait", "esc-1", "--timeout", "0"], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--timeout takes a number of seconds above 0"),
    });
  });

  it("reads key=value pairs: JSON only where it reads back exactly, strings otherwise", () => {
    expect(keyValues(["n=20", "ok=true", "v=1.10", "py=3.0", "name=x=y", "list=[1,2]"], "meta")).toEqual({
      n: 20,
      ok: true,
      v: "1.10",
      py: "3.0",
      name: "x=y",
      list: [1, 2],
    });
    expect(keyValues(["python=3.10"], "tool", false)).toEqual({ python: "3.10" });
    expect(() => keyValues(["novalue"], "meta")).toThrow("--meta takes key=value");
  });
});

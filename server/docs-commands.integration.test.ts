// The command blocks a reader runs, run as written. Every ```sh block of the README is marked
// `<!-- readme-block: clean -->` (it works on a clean machine with only this checkout: run here, on
// a fresh data folder) or `<!-- readme-block: agent -->` (it needs a real agent: a connect snippet,
// run by components/pod/connect-snippets.integration.test.ts, and followed with the real Claude
// Code by e2e/readme-first-run.spec.ts). The operators' password recovery
// (docs/operators/admin-password.md) runs against a real server with an admin token.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrapAdmin } from "./access/bootstrap-admin";
import { ROOT } from "./start-server";
import { until } from "./testing/run-cli";
import { testProviders } from "./testing/test-databases";
import { startTestServer, TEST_ADMIN_TOKEN } from "./testing/test-server";
import { performAcceptInvite } from "./web/people-actions";

type Block = { marks: string[]; lang: string; text: string };

/** A document's fenced blocks, each with the `<!-- name: value -->` marks on the lines right above it. */
function blocksOf(file: string): Block[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  return [...text.matchAll(/((?:^<!-- [^\n]* -->\n)*)^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({
    marks: [...m[1]!.matchAll(/<!-- ([a-z-]+): ([a-z-]+) -->/g)].map((x) => `${x[1]}: ${x[2]}`),
    lang: m[2]!,
    text: m[3]!,
  }));
}

/** A block's commands: continued lines joined, comment lines and trailing comments dropped. */
const commands = (text: string) =>
  text
    .replace(/\\\n/g, "")
    .split("\n")
    .filter((l) => l.trim() && !l.trim().startsWith("#"))
    .map((l) => l.replace(/\s+#\s[^"']*$/, "").trim());

/** Runs one line in bash from the repository's root; answers its exit code and output. */
function bash(line: string, env: Record<string, string>) {
  const child = spawn("bash", ["-c", line], {
    cwd: ROOT,
    env: { NODE_ENV: "production", PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"], // stdin a socket: bash would take itself for a remote shell
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr })),
  );
}

async function signIn(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status, "sign-in throttled").not.toBe(429);
  return res.ok
    ? res.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ")
    : null;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const README = blocksOf("README.md");
const shellBlocks = README.filter((b) => b.lang === "sh");
const marked = (mark: string) => shellBlocks.filter((b) => b.marks.includes(mark));

describe("the README's command blocks", () => {
  it("are each marked: run on a clean machine, or with a real agent (then a connect snippet)", () => {
    expect(shellBlocks.length).toBeGreaterThanOrEqual(2);
    for (const b of shellBlocks)
      expect({ block: b.text, marks: b.marks }).toEqual({
        block: b.text,
        marks: expect.arrayContaining([expect.stringMatching(/^readme-block: (clean|agent)$/)]),
      });
    expect(marked("readme-block: clean").length).toBeGreaterThanOrEqual(1);
    expect(marked("readme-block: agent").length).toBeGreaterThanOrEqual(1);
    for (const b of marked("readme-block: agent")) expect(b.marks).toContain("connect-snippet: shell");
  });

  describe("the two commands, on this checkout with a fresh data folder", () => {
    const folders: string[] = [];
    let stopServer = () => {};
    afterAll(() => {
      stopServer();
      for (const f of folders) rmSync(f, { recursive: true, force: true });
    });

    it("`npm start` serves, prints the first admin's password that signs in, and shuts down on SIGTERM", async () => {
      const [block] = marked("readme-block: clean");
      expect(commands(block!.text)).toEqual(["npm install && npm start", "npm test"]);
      // `npm install` has run for this checkout (it is how the test runs at all); a second install
      // would only repeat it. What `npm test` runs is this file among the rest (so it is not run
      // from here): the README says what it does, and package.json must agree.
      expect(existsSync(join(ROOT, "node_modules", ".package-lock.json"))).toBe(true);
      const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts;
      expect(scripts.test).toMatch(/typecheck.*lint.*test:unit.*test:e2e/);
      expect(scripts["test:e2e"]).toMatch(/playwright test/);

      const data = mkdtempSync(join(tmpdir(), "podwatch-readme-"));
      folders.push(data);
      const port = await freePort();
      // The web pages are left to the browser tests (e2e/readme-first-run.spec.ts runs them from the
      // same README): a build here would take minutes and prove nothing more about these lines.
      const child = spawn("npm", ["start"], {
        cwd: ROOT,
        env: {
          NODE_ENV: "production", // the server's default, when the shell sets none
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: `file:${join(data, "data", "podwatch.db")}`,
          PORT: String(port),
          PODWATCH_WEB: "0",
        },
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      });
      stopServer = () => {
        if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
      };
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));

      // The line the README shows, with this server's address and the password it printed.
      const shown = README.find((b) => b.lang === "text" && b.text.includes("first start"))!.text.trim();
      const url = `http://127.0.0.1:${port}`;
      const pattern = new RegExp(
        shown
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
          .replace("http://127\\.0\\.0\\.1:3000", url)
          .replace("…", "(\\S+)"),
      );
      await until(() => pattern.test(out), `the first-start line in:\n${out}`, 120_000);
      const password = out.match(pattern)![1]!;
      expect(existsSync(join(data, "data", "podwatch.db"))).toBe(true);
      expect(existsSync(join(data, "data", "auth-secret"))).toBe(true);

      const cookie = await signIn(url, "admin@podwatch.local", password);
      expect(cookie, out).toBeTruthy();
      // The demo pod: the administrator watches it, as the README says.
      const pods = async () => {
        const res = await fetch(`${url}/api/v1/pods`, { headers: { cookie: cookie!, origin: url } });
        return ((await res.json()).pods ?? []) as { name: string }[];
      };
      await expect.poll(async () => (await pods()).length, { timeout: 60_000 }).toBeGreaterThan(0);

      // Ctrl-C's or a process manager's stop reaches the whole group; npm itself just ends, and the
      // server drains and closes (the pipe closes when the server, its last holder, has exited).
      process.kill(-child.pid!, "SIGTERM");
      await exited;
      expect(out).toContain("drained and closed");
    }, 180_000);
  });
});

describe.each(testProviders())("docs/operators/admin-password.md (%s)", (provider) => {
  it("its lines make a reset link with the admin token; the link sets a new password", async () => {
    const s = await startTestServer(provider);
    try {
      const first = (await bootstrapAdmin(s.app.access, "admin@podwatch.local"))!;
      const [block, ...others] = blocksOf("docs/operators/admin-password.md").filter((b) =>
        b.marks.includes("doc-block: admin-reset"),
      );
      expect(others).toEqual([]);
      const [exported, list, reset, ...rest] = commands(block!.text);
      expect(rest).toEqual([]);
      // Its values are placeholders; this server and its admin token stand in for them.
      expect(exported).toMatch(/^export PODWATCH_URL=\S+ PODWATCH_ADMIN_TOKEN=\S+$/);
      const env = { PODWATCH_URL: s.url, PODWATCH_ADMIN_TOKEN: TEST_ADMIN_TOKEN };

      const listed = await bash(list!, env);
      expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: "" });
      const admin = (JSON.parse(listed.stdout).users as { id: string; email: string }[]).find(
        (u) => u.email === first.email,
      )!;
      const made = await bash(reset!, { ...env, ID: admin.id });
      expect({ code: made.code, stderr: made.stderr }).toEqual({ code: 0, stderr: "" });
      const link = JSON.parse(made.stdout) as { url: string; kind: string };
      expect(link).toMatchObject({ kind: "reset", url: expect.stringMatching(/\/invite\/[^/]+$/) });

      const fresh = "a brand new password";
      const token = link.url.split("/invite/")[1]!;
      expect(await performAcceptInvite(s.app, { token, password: fresh, confirm: fresh })).toMatchObject({
        ok: true,
        value: { email: first.email, kind: "reset" },
      });
      expect(await signIn(s.url, first.email, first.password)).toBeNull();
      expect(await signIn(s.url, first.email, fresh)).toBeTruthy();
    } finally {
      await s.stop();
    }
  }, 60_000);
});

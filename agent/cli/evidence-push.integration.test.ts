// `podwatch evidence push DIR`: 100 files (one of 20 MB) round-trip byte for
// byte; a second push uploads nothing; a tampered upload is refused; the
// bundle's manifest is itself a blob whose hash the event names.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api } from "../../server/testing/test-server";
import { spawnServer, SPAWN_ADMIN_TOKEN, type SpawnedServer } from "../../server/testing/spawn-server";
import { createTestDatabase, type TestDatabase } from "../../server/testing/test-databases";
import { runCli } from "../../server/testing/run-cli";

const admin = { token: SPAWN_ADMIN_TOKEN };
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("evidence push", () => {
  let db: TestDatabase;
  let s: SpawnedServer;
  let podId: string;
  let token: string;
  const dir = mkdtempSync(join(tmpdir(), "podwatch-evidence-"));
  const files = new Map<string, Buffer>();
  const push = (...args: string[]) =>
    runCli(["evidence", "push", ...args], { PODWATCH_URL: s.url, PODWATCH_TOKEN: token });
  const blob = async (hash: string) =>
    Buffer.from(
      await (
        await fetch(`${s.url}/api/v1/blobs/${hash}`, { headers: { authorization: `Bearer ${token}` } })
      ).arrayBuffer(),
    );

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    s = await spawnServer({ DATABASE_URL: db.url, PODWATCH_BLOB_MAX_BYTES: String(32 * 1024 * 1024) });
    const pod = await agentPod(s.url, "evidence", { "impl-1": "implementer" }, admin);
    [podId, token] = [pod.podId, pod.tokens["impl-1"]!];

    const put = (path: string, content: Buffer) => {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), content);
      files.set(path, content);
    };
    put("logs/big.bin", randomBytes(20 * 1024 * 1024));
    const commands = [
      { command: "npm test", exit_code: 0, duration_ms: 4210 },
      { command: "npm run lint", exit_code: 1, duration_ms: 800 },
    ];
    put("commands.jsonl", Buffer.from(commands.map((c) => JSON.stringify(c)).join("\n") + "\n"));
    for (let i = 0; i < 98; i++)
      put(
        `${i % 3 ? "reports" : "logs/run"}/file-${String(i).padStart(2, "0")}.txt`,
        Buffer.from(`artifact ${i}\n${randomBytes(200 + i * 37).toString("base64")}`),
      );
  });
  afterAll(async () => {
    await s?.stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("uploads 100 files (one of 20 MB) that round-trip byte for byte, and records the bundle", async () => {
    const r = await push(dir, "--id", "ev-1", "--tool", "python=3.10", "--json");
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ bundleId: "ev-1", artifacts: 100, uploaded: 100, skipped: 0 });
    expect(r.stderr).toBe(""); // --json keeps progress off the terminal

    const { events } = (
      await api(s.url, "GET", `/api/v1/pods/${podId}/events?after=0&limit=1000`, undefined, admin)
    ).body;
    const bundle = events.find((e: { type: string }) => e.type === "evidence.bundle").body;
    expect(bundle.commands).toEqual([
      { command: "npm test", exit_code: 0, duration_ms: 4210 },
      { command: "npm run lint", exit_code: 1, duration_ms: 800 },
    ]);
    expect(bundle.env).toMatchObject({ commit: "unknown", tools: { python: "3.10", node: process.version } }); // not a git checkout
    expect(bundle.artifacts.map((a: { path: string }) => a.path).sort()).toEqual([...files.keys()].sort());
    for (const a of bundle.artifacts as { path: string; sha256: string; size: number }[]) {
      const original = files.get(a.path)!;
      expect([a.sha256, a.size]).toEqual([sha(original), original.length]);
      expect((await blob(a.sha256)).equals(original), a.path).toBe(true);
    }
    // The manifest is a blob too: fetch it, hash it, read it back.
    const manifest = await blob(bundle.manifestHash);
    expect(sha(manifest)).toBe(bundle.manifestHash);
    expect(JSON.parse(manifest.toString())).toEqual({
      artifacts: bundle.artifacts,
      commands: bundle.commands,
      env: bundle.env,
    });
    const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body;
    expect(state.evidence.find((e: { bundleId: string }) => e.bundleId === "ev-1")).toMatchObject({
      passed: false,
      failedCommands: 1,
    });
  });

  it("a second push of the same folder uploads nothing (seen on the wire)", async () => {
    // A recording relay between the CLI and the server: every request passes through it for real.
    const seen: string[] = [];
    const relay = createServer((req, res) => {
      seen.push(`${req.method} ${req.url!.replace(/[0-9a-f]{64}/, "{sha}")}`);
      const upstream = httpRequest(
        `${s.url}${req.url}`,
        { method: req.method, headers: req.headers },
        (r) => (res.writeHead(r.statusCode!, r.headers), r.pipe(res)),
      );
      req.pipe(upstream);
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
    try {
      const r = await runCli(["evidence", "push", dir, "--id", "ev-2", "--tool", "python=3.10"], {
        PODWATCH_URL: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
        PODWATCH_TOKEN: token,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /evidence ev-2: 100 files, 0 uploaded \(0\.0 MB\), 100 already there; recorded as #\d+/,
      );
    } finally {
      relay.close();
    }
    expect(seen.filter((x) => x.startsWith("PUT"))).toEqual([]);
    expect(seen.filter((x) => x === "HEAD /api/v1/blobs/{sha}")).toHaveLength(101); // 100 files + the manifest
    expect(seen.filter((x) => x.startsWith("POST"))).toEqual([`POST /api/v1/pods/${podId}/events`]);
  });

  it("shows progress while it uploads", async () => {
    writeFileSync(join(dir, "late.txt"), "one more file");
    const r = await push(dir, "--id", "ev-3");
    expect(r.stderr).toMatch(/uploading \[#+\] 1\/1 files/);
    expect(r.stdout).toContain("101 files, 1 uploaded");
  });

  it("--task links the bundle to the task (board badge, evidence links); an unknown task is refused before anything is stored", async () => {
    const small = mkdtempSync(join(tmpdir(), "podwatch-task-evidence-"));
    try {
      writeFileSync(
        join(small, "commands.jsonl"),
        `${JSON.stringify({ command: "npm test", exit_code: 0 })}\n`,
      );
      writeFileSync(join(small, "unique.txt"), `only in this push ${randomBytes(8).toString("hex")}`);
      expect(
        (
          await api(
            s.url,
            "POST",
            `/api/v1/pods/${podId}/events`,
            { type: "task.added", actor: "impl-1", body: { taskId: "task_ev", description: "parser" } },
            { token },
          )
        ).status,
      ).toBe(201);
      const ok = await push(small, "--task", "task_ev", "--id", "ev-task");
      expect(ok.code, ok.stderr).toBe(0);
      const state = (await api(s.url, "GET", `/api/v1/pods/${podId}/state`, undefined, admin)).body;
      expect(state.board.find((t: { taskId: string }) => t.taskId === "task_ev")).toMatchObject({
        evidenceIds: ["ev-task"],
        failingGates: [],
      });
      expect(state.evidence.find((e: { bundleId: string }) => e.bundleId === "ev-task").links.tasks).toEqual([
        "task_ev",
      ]);

      writeFileSync(join(small, "unique.txt"), `never uploaded ${randomBytes(8).toString("hex")}`);
      const headBefore = (await api(s.url, "GET", `/api/v1/pods/${podId}`, undefined, admin)).body.headHash;
      const refused = await push(small, "--task", "task_404", "--id", "ev-nowhere");
      expect(refused).toMatchObject({
        code: 3,
        stderr: expect.stringContaining("task task_404 does not exist"),
      });
      // The pod's own rule, for a client that does not ask first: 422, nothing appended.
      const raw = await api(
        s.url,
        "POST",
        `/api/v1/pods/${podId}/events`,
        {
          type: "evidence.bundle",
          actor: "impl-1",
          taskId: "task_404",
          body: {
            bundleId: "ev-raw",
            commands: [],
            artifacts: [],
            env: { commit: "c" },
            manifestHash: "b".repeat(64),
          },
        },
        { token },
      );
      expect([raw.status, raw.body.error.code]).toEqual([422, "unknown_task"]);
      expect((await api(s.url, "GET", `/api/v1/pods/${podId}`, undefined, admin)).body.headHash).toBe(
        headBefore,
      );
      // Not uploaded at all (the site admin sees every stored blob, referenced or not).
      const unique = sha(readFileSync(join(small, "unique.txt")));
      expect(
        (
          await fetch(`${s.url}/api/v1/blobs/${unique}`, {
            method: "HEAD",
            headers: { authorization: `Bearer ${SPAWN_ADMIN_TOKEN}` },
          })
        ).status,
      ).toBe(404);
    } finally {
      rmSync(small, { recursive: true, force: true });
    }
  });

  it("refuses a tampered upload and stores nothing", async () => {
    const claimed = sha(Buffer.from("the real bytes"));
    const res = await fetch(`${s.url}/api/v1/blobs/${claimed}`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}` },
      body: "tampered bytes",
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe("hash_mismatch");
    expect(
      (
        await fetch(`${s.url}/api/v1/blobs/${claimed}`, {
          method: "HEAD",
          headers: { authorization: `Bearer ${token}` },
        })
      ).status,
    ).toBe(404);
  });

  it("refuses what cannot be evidence: a symlink out of the folder, a missing folder, a bad transcript", async () => {
    const odd = mkdtempSync(join(tmpdir(), "podwatch-odd-"));
    try {
      symlinkSync("/etc/hostname", join(odd, "escape"));
      expect(await push(odd)).toMatchObject({ code: 2, stderr: expect.stringContaining("symbolic link") });
      rmSync(join(odd, "escape"));
      writeFileSync(join(odd, "commands.jsonl"), '{"command":"x"}\n');
      expect(await push(odd)).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("commands.jsonl line 1"),
      });
      expect(await push(join(odd, "nope"))).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("not a folder"),
      });
      expect(readFileSync(join(odd, "commands.jsonl"), "utf8")).toContain("x"); // untouched
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });
});

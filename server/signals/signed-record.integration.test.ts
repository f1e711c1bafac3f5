// The signed export of an agent's record, checked by scripts/verify-record.mjs run as its own
// process (as a directory or broker would run it): a real export verifies; tampered copies fail.
import { execFile } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPod, api, startServerOn, startTestServer, type TestServer } from "../testing/test-server";
import { createTestDatabase, testProviders } from "../testing/test-databases";
import { canonicalJson } from "../domain/canonical-json";
import type { SignedAgentRecord, SigningKeyView } from "../wire/signals";
import type { AppError } from "../domain/errors";
import { buildAgentRecord } from "./build-agent-record";

const SCRIPT = join(import.meta.dirname, "..", "..", "scripts", "verify-record.mjs");
const usage = (actor: string, sessionId: string, inputTokens: number) => ({
  id: randomUUID(),
  type: "usage.reported",
  actor,
  sessionId,
  body: { model: "claude-sonnet-4-5", inputTokens, outputTokens: 5, costUsd: 0.01 },
});
const toolCall = (actor: string, tool: string) => ({
  id: randomUUID(),
  type: "tool.call",
  actor,
  body: { toolUseId: `toolu_${randomUUID().slice(0, 8)}`, tool, phase: "started", input: 'say "hi"\n' },
});
const note = (actor: string) => ({
  id: randomUUID(),
  type: "note",
  actor,
  body: { kind: "STATUS", text: "thinking" },
});

type Run = { code: number; out: string };
const verifyRecord = (args: string[]) =>
  new Promise<Run>((resolve) =>
    execFile(process.execPath, [SCRIPT, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, out: stdout + stderr }),
    ),
  );

describe.each(testProviders())("signed record on %s", (provider) => {
  let s: TestServer;
  let pod: { podId: string; tokens: Record<string, string> };
  let dir: string;
  let key: SigningKeyView;
  let keyFile: string;
  let implSeqs: number[];
  let between: string;

  const post = async (member: string, events: unknown[]) => {
    const r = await api(
      s.url,
      "POST",
      `/api/v1/pods/${pod.podId}/events`,
      { events },
      { token: pod.tokens[member]! },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return (r.body.events as { seq: number }[]).map((e) => e.seq);
  };
  const record = (query: string) =>
    api<SignedAgentRecord>(s.url, "GET", `/api/v1/signals/record?pod=${pod.podId}&${query}`);
  const write = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value));
    return file;
  };
  /** Signs as the server would (its key read from the database): a signer that lies about the events. */
  const resign = async (r: SignedAgentRecord): Promise<SignedAgentRecord> => {
    const row = (await s.app.store.prisma.signingKey.findFirstOrThrow())!;
    return {
      ...r,
      signature: sign(
        null,
        Buffer.from(canonicalJson(r.payload), "utf8"),
        createPrivateKey(row.privateKey),
      ).toString("base64"),
    };
  };

  beforeAll(async () => {
    s = await startTestServer(provider);
    dir = mkdtempSync(join(tmpdir(), "podwatch-record-"));
    pod = await agentPod(s.url, "record", { impl: "implementer", rev: "reviewer" });
    const sessionId = randomUUID();
    const first = await post("impl", [usage("impl", sessionId, 100), note("impl"), toolCall("impl", "Bash")]);
    await post("rev", [toolCall("rev", "Read")]);
    await new Promise((r) => setTimeout(r, 20));
    between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const second = await post("impl", [toolCall("impl", "Edit"), usage("impl", sessionId, 50)]);
    implSeqs = [first[0]!, first[2]!, ...second];
    key = (await api<SigningKeyView>(s.url, "GET", "/api/v1/signals/key", undefined, null)).body;
    keyFile = write("key.pem", key.publicKeyPem);
  });
  afterAll(async () => {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("publishes one Ed25519 public key, kept across restarts and shared by every node on the database", async () => {
    expect(key).toEqual({
      keyId: expect.stringMatching(/^ed25519-[0-9a-f]{16}$/),
      algorithm: "Ed25519",
      publicKeyPem: expect.stringContaining("BEGIN PUBLIC KEY"),
    });
    const db = await createTestDatabase(provider);
    try {
      const [a, b] = await Promise.all([startServerOn(db), startServerOn(db)]);
      const keys = await Promise.all(
        [a, b].map(async (n) => (await api(n.url, "GET", "/api/v1/signals/key", undefined, null)).body),
      );
      expect(keys[1]).toEqual(keys[0]);
      expect(keys[0].keyId).not.toBe(key.keyId); // another installation, another key
      await Promise.all([a.close(), b.close()]);
      const again = await startServerOn(db);
      expect((await api(again.url, "GET", "/api/v1/signals/key", undefined, null)).body).toEqual(keys[0]);
      await again.close();
    } finally {
      await db.drop();
    }
  });

  it("holds exactly the events the agent's signals came from, each with its hash, against the chain head", async () => {
    const { status, body } = await record("agent=impl");
    expect(status).toBe(200);
    const { payload } = body;
    expect(body.keyId).toBe(key.keyId);
    expect(payload.events.map((e) => e.seq)).toEqual(implSeqs);
    const podNow = (await api(s.url, "GET", `/api/v1/pods/${pod.podId}`)).body;
    expect(payload.head).toEqual({ seq: podNow.eventCount, hash: podNow.headHash });
    expect(payload.signals.rates).toMatchObject({ totalTokens: 160, toolCalls: 2 });
    expect(payload.window).toBeNull();
    const [firstUsage] = payload.events;
    expect(JSON.parse(firstUsage!.body)).toMatchObject({ model: "claude-sonnet-4-5", inputTokens: 100 });
    expect(JSON.parse(firstUsage!.meta!)).toHaveProperty("sessionId");
  });

  it("verifies with the script, given the key file or the server", async () => {
    const file = write("record.json", (await record("agent=impl")).body);
    const byKey = await verifyRecord([file, "--key", keyFile]);
    expect(byKey, byKey.out).toMatchObject({ code: 0 });
    expect(byKey.out).toMatch(/OK — agent impl in pod .+: 4 events/);
    expect(await verifyRecord([file, "--server", s.url])).toMatchObject({ code: 0 });
  });

  it("fails on a changed body, signature, head or key — naming what", async () => {
    const real = (await record("agent=impl")).body;
    const tampered = structuredClone(real);
    tampered.payload.events[0]!.body = tampered.payload.events[0]!.body.replace("100", "1");
    const bodyChanged = await verifyRecord([write("body.json", tampered), "--key", keyFile]);
    expect(bodyChanged.code).toBe(1);
    expect(bodyChanged.out).toMatch(/signature does not match/);

    const sig = Buffer.from(real.signature, "base64");
    sig[0]! ^= 1;
    expect(
      (
        await verifyRecord([
          write("sig.json", { ...real, signature: sig.toString("base64") }),
          "--key",
          keyFile,
        ])
      ).code,
    ).toBe(1);

    const headChanged = structuredClone(real);
    headChanged.payload.head.hash = "f".repeat(64);
    expect((await verifyRecord([write("head.json", headChanged), "--key", keyFile])).code).toBe(1);

    // Signed anew (a signer that lies): the events themselves give it away.
    const liedBody = await verifyRecord([write("lied-body.json", await resign(tampered)), "--key", keyFile]);
    expect(liedBody.code).toBe(1);
    expect(liedBody.out).toMatch(
      new RegExp(`event seq ${real.payload.events[0]!.seq}: its content hashes to`),
    );
    const lastSeq = real.payload.events.at(-1)!.seq;
    expect(lastSeq).toBe(real.payload.head.seq);
    const liedHead = await verifyRecord([
      write("lied-head.json", await resign(headChanged)),
      "--key",
      keyFile,
    ]);
    expect(liedHead.out).toMatch(/is the head's seq but its hash is not the head's/);
    expect(liedHead.code).toBe(1);
    const shortHead = structuredClone(real);
    // A head that stops short of events it is said to cover (consistent in itself: the previous event's seq and hash).
    shortHead.payload.head = { seq: lastSeq - 1, hash: real.payload.events.at(-2)!.hash };
    expect(real.payload.events.at(-2)!.seq).toBe(lastSeq - 1);
    expect(
      (await verifyRecord([write("short-head.json", await resign(shortHead)), "--key", keyFile])).out,
    ).toMatch(/past the chain head/);

    const other = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }) as string;
    const wrongKey = await verifyRecord([write("record.json", real), "--key", write("other.pem", other)]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.out).toMatch(/signed with key ed25519-/);
    expect((await verifyRecord([write("record.json", real)])).code).toBe(2);
  });

  it("over a window: only the events received in it, and the signals they make", async () => {
    const { body } = await record(`agent=impl&from=${encodeURIComponent(between)}`);
    expect(body.payload.window?.from).toBe(between);
    expect(body.payload.events.map((e) => e.seq)).toEqual(implSeqs.slice(2));
    expect(body.payload.signals.rates).toMatchObject({ totalTokens: 55, toolCalls: 1 });
    expect((await verifyRecord([write("window.json", body), "--key", keyFile])).code).toBe(0);
  });

  it("refuses a record longer than its bound (422: narrow it with from/to), and the narrowed one fits", async () => {
    const state = (await s.app.store.readState(pod.podId))!;
    const refused = await buildAgentRecord(
      s.app,
      pod.podId,
      state,
      { agentId: "impl" },
      { maxEvents: 3 },
    ).catch((e: AppError) => e);
    expect(refused).toMatchObject({
      status: 422,
      code: "record_too_large",
      message: expect.stringMatching(/narrow it with from\/to/),
    });
    const narrowed = await buildAgentRecord(
      s.app,
      pod.podId,
      state,
      { agentId: "impl", from: between },
      { maxEvents: 3 },
    );
    expect(narrowed.payload.events).toHaveLength(2);
  });

  it("refuses a record past its byte bound (bodies and meta counted as they are collected), and the narrowed one fits", async () => {
    const state = (await s.app.store.readState(pod.podId))!;
    const whole = await buildAgentRecord(s.app, pod.podId, state, { agentId: "impl" });
    const bytes = whole.payload.events.map(
      (e) => Buffer.byteLength(e.body) + (e.meta ? Buffer.byteLength(e.meta) : 0),
    );
    const total = bytes.reduce((a, b) => a + b, 0);
    expect(
      await buildAgentRecord(s.app, pod.podId, state, { agentId: "impl" }, { maxBytes: total }),
    ).toMatchObject({ payload: { events: whole.payload.events } });
    const refused = await buildAgentRecord(
      s.app,
      pod.podId,
      state,
      { agentId: "impl" },
      { maxBytes: total - 1 },
    ).catch((e: AppError) => e);
    expect(refused).toMatchObject({
      status: 422,
      code: "record_too_large",
      message: expect.stringMatching(/bytes.*narrow it with from\/to/),
    });
    const narrowed = await buildAgentRecord(
      s.app,
      pod.podId,
      state,
      { agentId: "impl", from: between },
      { maxBytes: total - 1 },
    );
    expect(narrowed.payload.events.map((e) => e.seq)).toEqual(implSeqs.slice(2));
  });

  it("answers 404 for an agent that is not the pod's, 400 for a bad query", async () => {
    expect((await record("agent=nobody")).status).toBe(404);
    expect((await api(s.url, "GET", `/api/v1/signals/record?pod=no-such-pod&agent=impl`)).status).toBe(404);
    expect((await record("")).status).toBe(400);
    expect((await record("agent=impl&from=2026-02-01&to=2026-01-01")).status).toBe(400);
  });
});

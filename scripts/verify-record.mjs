#!/usr/bin/env node
// Checks a signed export of an agent's record from podwatch (GET /api/v1/signals/record) on its
// own, with Node's built-ins only, so a directory or a broker can run it without podwatch:
//
//   node scripts/verify-record.mjs record.json --key podwatch-key.pem
//   node scripts/verify-record.mjs record.json --server https://podwatch.example.com
//
// --key: the installation's public key (PEM) you pinned earlier (GET /api/v1/signals/key →
// publicKeyPem); --server fetches it now (trusting that server's answer). It checks the Ed25519
// signature over the canonical JSON of the payload, re-hashes every event with podwatch's v1
// chain encoding, checks the seqs ascend up to the chain head, consecutive events link, and the
// event at the head's seq (if included) carries the head's hash. Exit 0: all good (a summary is
// printed); 1: the first failure is named; 2: the command was used wrongly.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const usage =
  "usage: node scripts/verify-record.mjs <record.json> (--key <public-key.pem> | --server <podwatch URL>)";

function fail(message) {
  console.error(`verify-record: FAILED: ${message}`);
  process.exit(1);
}

function misuse(message) {
  console.error(`verify-record: ${message}\n${usage}`);
  process.exit(2);
}

/** podwatch's canonical JSON (server/domain/canonical-json.ts): keys sorted, no whitespace, undefined members dropped. */
function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new TypeError("non-finite number");
    return JSON.stringify(value ?? null);
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(",")}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
}

/** The v1 encoding an event's hash covers (server/domain/hash-chain.ts: canonicalEvent); meta is left out when null. */
function canonicalEvent(e) {
  const { id, podId, seq, type, actor, role, ts, receivedAt, body, meta, prevHash } = e;
  return canonicalJson({
    v: 1,
    id,
    podId,
    seq,
    type,
    actor,
    role,
    ts,
    receivedAt,
    body,
    meta: meta ?? undefined,
    prevHash,
  });
}

const sha256Hex = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const keyIdOf = (pem) => `ed25519-${sha256Hex(pem.trim()).slice(0, 16)}`;
const HEX64 = /^[0-9a-f]{64}$/;

function parseArgs(argv) {
  const args = { file: null, key: null, server: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--key" || a === "--server") {
      if (!argv[i + 1]) misuse(`${a} needs a value`);
      args[a.slice(2)] = argv[++i];
    } else if (a.startsWith("--")) misuse(`unknown option ${a}`);
    else if (args.file === null) args.file = a;
    else misuse(`unexpected argument ${a}`);
  }
  if (!args.file) misuse("name the record file");
  if (!args.key === !args.server) misuse("give exactly one of --key and --server");
  return args;
}

async function publicKeyPem(args) {
  if (args.key) return readFileSync(args.key, "utf8");
  const url = new URL("/api/v1/signals/key", args.server);
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) }).catch((e) =>
    fail(`could not fetch ${url}: ${e.message}`),
  );
  if (!res.ok) fail(`${url} answered ${res.status}`);
  const body = await res.json().catch(() => fail(`${url} did not answer JSON`));
  if (typeof body?.publicKeyPem !== "string") fail(`${url} answered no publicKeyPem`);
  return body.publicKeyPem;
}

function checkSignature(record, pem) {
  if (record.algorithm !== "Ed25519")
    fail(`the record is signed with ${JSON.stringify(record.algorithm)}; this script checks Ed25519`);
  if (record.keyId !== keyIdOf(pem))
    fail(`the record was signed with key ${record.keyId}; the key given is ${keyIdOf(pem)}`);
  let key;
  try {
    key = createPublicKey(pem);
  } catch (e) {
    fail(`the public key is not a PEM key: ${e.message}`);
  }
  if (typeof record.signature !== "string") fail("the record has no signature");
  const ok = verify(
    null,
    Buffer.from(canonicalJson(record.payload), "utf8"),
    key,
    Buffer.from(record.signature, "base64"),
  );
  if (!ok)
    fail("the signature does not match the payload (the payload was changed, or another key signed it)");
}

function checkEvents(payload) {
  const { head, events, podId } = payload;
  if (!head || !Number.isSafeInteger(head.seq) || head.seq < 0 || (head.seq > 0 && !HEX64.test(head.hash)))
    fail("the payload has no valid chain head");
  if (!Array.isArray(events)) fail("the payload has no events list");
  let prev = null;
  for (const e of events) {
    const at = `event seq ${e?.seq}`;
    if (!e || typeof e !== "object" || !Number.isSafeInteger(e.seq) || e.seq < 1)
      fail(`an event has no valid seq`);
    if (e.podId !== podId) fail(`${at} belongs to pod ${e.podId}, not ${podId}`);
    if (typeof e.body !== "string") fail(`${at}: body must be the stored JSON text`);
    if (prev && e.seq <= prev.seq) fail(`${at} comes after seq ${prev.seq}: seqs must ascend`);
    if (e.seq > head.seq) fail(`${at} is past the chain head (seq ${head.seq})`);
    const hash = sha256Hex(canonicalEvent(e));
    if (hash !== e.hash) fail(`${at}: its content hashes to ${hash}, not the ${e.hash} it carries`);
    if (prev && e.seq === prev.seq + 1 && e.prevHash !== prev.hash)
      fail(`${at} does not link to seq ${prev.seq} (prevHash ${e.prevHash}, expected ${prev.hash})`);
    if (e.seq === head.seq && e.hash !== head.hash)
      fail(`${at} is the head's seq but its hash is not the head's (${head.hash})`);
    prev = e;
  }
  return events;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let record;
  try {
    record = JSON.parse(readFileSync(args.file, "utf8"));
  } catch (e) {
    fail(`${args.file} is not readable JSON: ${e.message}`);
  }
  if (!record || typeof record.payload !== "object" || record.payload === null)
    fail("the file holds no signed record ({payload, signature, keyId, algorithm})");
  const pem = await publicKeyPem(args);
  checkSignature(record, pem);
  const events = checkEvents(record.payload);
  const p = record.payload;
  const span = events.length ? `seq ${events[0].seq}..${events.at(-1).seq}` : "none";
  console.log(
    `verify-record: OK — agent ${p.agentId} in pod ${p.podId}: ${events.length} events (${span}), chain head seq ${p.head.seq}, signed by ${record.keyId} at ${p.generatedAt}`,
  );
}

main().catch((e) => fail(e?.message ?? String(e)));

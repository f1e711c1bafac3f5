// `evidence push DIR` (docs/protocol/workcells-and-evidence.md#evidence-bundles): every file of the folder becomes an
// artifact named by its normalised relative path and SHA-256; commands.jsonl
// is the command transcript; the environment snapshot records the commit and
// tool versions. The manifest itself is uploaded as a blob too, so
// manifestHash names bytes anyone can fetch and check.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { canonicalJson, sha256Hex } from "../../server/wire/hash";
import { ZRelativePath } from "../../server/wire/events";
import { hashFile, hasBlob, uploadBlob } from "./blobs";
import type { Ack, PodwatchClient } from "./client";
import { Interrupted, PodwatchError, UsageError } from "./errors";
import { randomBytes } from "node:crypto";

export type Artifact = { path: string; sha256: string; size: number };
export type Command = { command: string; exit_code: number; duration_ms?: number; [k: string]: unknown };
export type PushProgress = {
  phase: "hashing" | "uploading";
  files: number;
  totalFiles: number;
  bytes: number;
  totalBytes: number;
};
export type PushOptions = {
  bundleId?: string;
  commit?: string;
  tools?: Record<string, string>;
  taskId?: string;
  runId?: string;
  onProgress?: (p: PushProgress) => void;
  signal?: AbortSignal;
};
export type PushResult = {
  bundleId: string;
  manifestHash: string;
  artifacts: number;
  uploaded: number;
  uploadedBytes: number;
  skipped: number;
  event: Ack;
};

/** Every regular file under `dir`, as normalised "/" paths. Symlinks are refused: evidence is what is in the folder. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    // Byte order, not the locale's: the manifest (and so its hash) must not depend on the machine.
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )) {
      const full = join(abs, entry.name);
      if (entry.isSymbolicLink())
        throw new UsageError(`${full} is a symbolic link; evidence must be regular files inside the folder`);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) out.push(relative(dir, full).split(sep).join("/"));
    }
  };
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`${dir} is not a folder`);
  walk(dir);
  for (const p of out) {
    const r = ZRelativePath.safeParse(p);
    if (!r.success)
      throw new UsageError(`cannot name ${shown(p)} inside a bundle: a path ${r.error.issues[0]!.message}`);
  }
  return out;
}

/** A file name quoted with its invisible characters escaped: a name must not get to rewrite the terminal it is printed on. */
const shown = (p: string) =>
  JSON.stringify(p).replace(
    /[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );

/** commands.jsonl: one JSON object per line with command and exit_code. */
function readCommands(dir: string, files: string[]): Command[] {
  if (!files.includes("commands.jsonl")) return [];
  return readFileSync(join(dir, "commands.jsonl"), "utf8")
    .split("\n")
    .map((l, i) => [l.trim(), i + 1] as const)
    .filter(([l]) => l)
    .map(([l, n]) => {
      let c: Command;
      try {
        c = JSON.parse(l);
      } catch {
        throw new UsageError(`commands.jsonl line ${n} is not JSON`);
      }
      if (typeof c?.command !== "string" || !Number.isInteger(c.exit_code))
        throw new UsageError(`commands.jsonl line ${n} needs "command" (string) and "exit_code" (integer)`);
      return c;
    });
}

function gitCommit(dir: string): string {
  try {
    return (
      execFileSync("git", ["rev-parse", "HEAD"], { cwd: dir, stdio: ["ignore", "pipe", "ignore"] })
        .toString()
        .trim() || "unknown"
    );
  } catch {
    return "unknown";
  }
}

/** The pod refuses a bundle for a task it lacks (unknown_task); asking first spares uploading a whole folder for a typo. */
async function requireTask(client: PodwatchClient, taskId: string) {
  const plan = await client.request<{ tasks: { task_id: string }[] }>("GET", await client.podPath("/plan"));
  if (!plan.tasks.some((t) => t.task_id === taskId))
    throw new PodwatchError(422, "unknown_task", `task ${taskId} does not exist in this pod`);
}

export async function pushEvidence(
  client: PodwatchClient,
  dir: string,
  o: PushOptions = {},
): Promise<PushResult> {
  const files = listFiles(dir);
  const commands = readCommands(dir, files);
  if (o.taskId) await requireTask(client, o.taskId);
  const progress: PushProgress = {
    phase: "hashing",
    files: 0,
    totalFiles: files.length,
    bytes: 0,
    totalBytes: 0,
  };
  const artifacts: Artifact[] = [];
  for (const path of files) {
    if (o.signal?.aborted) throw new Interrupted();
    artifacts.push({ path, ...(await hashFile(join(dir, path))) });
    progress.files++;
    o.onProgress?.(progress);
  }
  // Only what the server lacks is sent (the same bytes under two names go once).
  const missing = new Map<string, Artifact>();
  for (const a of artifacts)
    if (!missing.has(a.sha256) && !(await hasBlob(client, a.sha256))) missing.set(a.sha256, a);
  Object.assign(progress, {
    phase: "uploading",
    files: 0,
    totalFiles: missing.size,
    bytes: 0,
    totalBytes: [...missing.values()].reduce((n, a) => n + a.size, 0),
  });
  o.onProgress?.(progress);
  for (const a of missing.values()) {
    if (o.signal?.aborted) throw new Interrupted();
    await uploadBlob(client, a.sha256, join(dir, a.path), a.size, (n) => {
      progress.bytes += n;
      o.onProgress?.(progress);
    }).catch(async (e) => {
      const now = await hashFile(join(dir, a.path)).catch(() => null);
      if (now?.sha256 !== a.sha256)
        throw new UsageError(`${a.path} changed while it was being pushed; push again once it is final`);
      throw e;
    });
    progress.files++;
    o.onProgress?.(progress);
  }
  const env = {
    commit: o.commit ?? gitCommit(dir),
    tools: { node: process.version, ...o.tools },
    platform: `${process.platform}-${process.arch}`,
  };
  const bundleId =
    o.bundleId ??
    `ev-${new Date()
      .toISOString()
      .replace(/[-:.TZ]/g, "")
      .slice(0, 14)}-${randomBytes(3).toString("hex")}`;
  // The manifest is what was shown (no bundle id): the same evidence pushed twice is the same blob.
  const manifest = Buffer.from(canonicalJson({ commands, artifacts, env }));
  const manifestHash = sha256Hex(manifest);
  if (!(await hasBlob(client, manifestHash)))
    await uploadBlob(client, manifestHash, manifest, manifest.length);
  const event = await client.emit({
    type: "evidence.bundle",
    body: { bundleId, commands, artifacts, env, manifestHash },
    ...(o.taskId ? { taskId: o.taskId } : {}),
    ...(o.runId ? { runId: o.runId } : {}),
  });
  return {
    bundleId,
    manifestHash,
    artifacts: artifacts.length,
    uploaded: missing.size,
    uploadedBytes: progress.totalBytes,
    skipped: artifacts.length - missing.size,
    event,
  };
}

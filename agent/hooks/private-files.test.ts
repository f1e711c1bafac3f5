// The files the command hook keeps for the user (spool, transcript cursors) and the settings it
// installs, against someone who can guess names or left the folder open.
import {
  appendFileSync,
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { spoolTranscriptUsage } from "./report-usage";
import { writeSettings } from "./settings-file";
import { Spool } from "./spool";
import { assistantLines } from "./testing/transcript";

const temp = (what: string) => mkdtempSync(join(tmpdir(), `pw-${what}-`));
/** A file someone else wants us to overwrite, and a symlink to it planted at the temporary name a pid would give. */
function plantAt(path: string) {
  const victim = join(temp("victim"), "victim.txt");
  writeFileSync(victim, "untouched");
  symlinkSync(victim, `${path}.${process.pid}.tmp`);
  return () => readFileSync(victim, "utf8");
}

describe("files the hook keeps for the user", () => {
  it("an existing spool folder open to others is closed to 0700 before anything is written in it", () => {
    const d = join(temp("spool"), "spool");
    mkdirSync(d);
    chmodSync(d, 0o777);
    new Spool(d, "http://x", "t").append([Spool.entry({ kind: "hook", payload: { n: 1 } })]);
    expect(statSync(d).mode & 0o777).toBe(0o700);
  });

  it("rewriting the spool never writes through a symlink planted at a guessable temporary name", () => {
    const s = new Spool(join(temp("spool"), "spool"), "http://x", "t");
    s.append([
      Spool.entry({ kind: "hook", payload: { n: 1 } }),
      Spool.entry({ kind: "hook", payload: { n: 2 } }),
    ]);
    const victim = plantAt(s.file);
    const [first] = s.locked(() => s.readFirstLocked(1 << 20));
    s.locked(() => s.dropFirstLocked(first!.bytes));
    expect(victim()).toBe("untouched");
    expect(
      s
        .locked(() => s.readFirstLocked(1 << 20))
        .map((l) => (l.entry as { payload: { n: number } }).payload.n),
    ).toEqual([2]);
    expect(
      readdirSync(join(s.file, "..")).filter((f) => f.endsWith(".tmp") && !f.includes(String(process.pid))),
    ).toEqual([]);
  });

  it("the transcript cursor is never written through a planted symlink either", () => {
    const spool = new Spool(join(temp("spool"), "spool"), "http://x", "t");
    const transcript = join(temp("transcript"), "s.jsonl");
    const S = "5f2b8c1e-9a47-4d3b-b6a2-7c0e1d9f4a31";
    const usage = (id: string) =>
      assistantLines(S, {
        model: "claude-sonnet-4-5-20250929",
        id,
        usage: {
          input_tokens: 1,
          output_tokens: 2,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
        },
      });
    writeFileSync(transcript, `${usage("msg_1").join("\n")}\n`);
    const payload = { hook_event_name: "Stop", session_id: S, transcript_path: transcript };
    expect(spoolTranscriptUsage(spool, payload)).toBe(1);
    const cursor = readdirSync(spool.dir).find((f) => f.includes(".usage-") && f.endsWith(".json"))!;
    const victim = plantAt(join(spool.dir, cursor));
    appendFileSync(transcript, `${usage("msg_2").join("\n")}\n`);
    expect(spoolTranscriptUsage(spool, payload)).toBe(1);
    expect(victim()).toBe("untouched");
    expect(JSON.parse(readFileSync(join(spool.dir, cursor), "utf8")).offset).toBe(statSync(transcript).size);
  });
});

describe("writing Claude Code's settings", () => {
  it("a symlinked settings.json is written through to its target and stays a link", () => {
    const dotfiles = temp("dotfiles");
    const target = join(dotfiles, "claude-settings.json");
    writeFileSync(target, "{}\n", { mode: 0o640 });
    const claude = join(temp("home"), ".claude");
    mkdirSync(claude);
    const path = join(claude, "settings.json");
    symlinkSync(target, path);
    writeSettings(path, '{ "hooks": {} }\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, "utf8")).toBe('{ "hooks": {} }\n');
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it("never writes through a symlink planted at a guessable temporary name", () => {
    const path = join(temp("proj"), ".claude", "settings.local.json");
    mkdirSync(join(path, ".."));
    writeFileSync(path, "{}\n");
    const victim = plantAt(path);
    writeSettings(path, '{ "a": 1 }\n');
    expect(victim()).toBe("untouched");
    expect(readFileSync(path, "utf8")).toBe('{ "a": 1 }\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
  });
});

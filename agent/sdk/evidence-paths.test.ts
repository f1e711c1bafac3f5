// `evidence push` refuses a folder whose file names could not be artifact paths,
// before anything is hashed or sent, and names the file without echoing its
// control characters to the terminal.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PodwatchClient } from "./client";
import { UsageError } from "./errors";
import { pushEvidence } from "./evidence";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("evidence push file names", () => {
  it.each([
    ["a newline", "bad\nname.txt", String.raw`"bad\nname.txt"`],
    ["an escape sequence", "red\u001b[31m.txt", String.raw`"red\u001b[31m.txt"`],
    ["a right-to-left override", "invoice\u202Etxt.exe", String.raw`"invoice\u202etxt.exe"`],
  ])("refuses a file whose name holds %s", async (_, name, shown) => {
    const dir = mkdtempSync(join(tmpdir(), "podwatch-evidence-"));
    dirs.push(dir);
    writeFileSync(join(dir, "ok.txt"), "fine");
    writeFileSync(join(dir, name), "hidden");
    // Nothing listens there: the refusal comes before any request.
    const client = new PodwatchClient({ url: "http://127.0.0.1:9", token: "pwa_unused" });
    const err = await pushEvidence(client, dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    const message = (err as Error).message;
    expect(message).toContain(shown);
    expect(message).toMatch(/control characters/);
    expect(/[\p{Cc}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u.test(message)).toBe(false);
  });
});

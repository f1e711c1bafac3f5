// The auth secret on disk: created whole or not at all, and a file that does
// not hold a usable secret stops the server instead of weakening it.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { persistentSecret } from "./secrets";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "podwatch-secret-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("persistentSecret", () => {
  it("creates a complete 0600 secret on first start, alone in its folder, and reuses it", () => {
    const dir = join(tempDir(), "data");
    const path = join(dir, "auth-secret");
    const secret = persistentSecret(path);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(path, "utf8")).toBe(`${secret}\n`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["auth-secret"]); // no temp file left behind
    expect(persistentSecret(path)).toBe(secret);
  });

  it("reuses a valid secret an operator wrote", () => {
    const path = join(tempDir(), "auth-secret");
    writeFileSync(path, "Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy+/=\n");
    expect(persistentSecret(path)).toBe("Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy+/=");
  });

  it.each([
    ["empty (torn by a crash during the first start)", ""],
    ["only a newline", "\n"],
    ["too short", "abc123\n"],
    ["with a space inside", `${"a".repeat(20)} ${"b".repeat(20)}\n`],
    ["with a control character", `${"a".repeat(40)}\u0000\n`],
    ["with a second line", `${"a".repeat(40)}\n${"b".repeat(40)}\n`],
  ])("refuses a secret file that is %s, telling the operator what to do", (_, content) => {
    const path = join(tempDir(), "auth-secret");
    writeFileSync(path, content, { mode: 0o600 });
    expect(() => persistentSecret(path)).toThrow(
      /auth-secret[\s\S]*not a valid secret[\s\S]*delete[\s\S]*signs everyone out[\s\S]*PODWATCH_AUTH_SECRET/i,
    );
    expect(readFileSync(path, "utf8")).toBe(content); // left as it was, for the operator to look at
  });
});

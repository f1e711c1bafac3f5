// Artifact paths are shown in the control room, written to terminals and used
// as file names by whoever downloads a bundle: no control characters in them.
import { describe, expect, it } from "vitest";
import { ZEventInput, ZRelativePath } from "./event-schemas";

const sha = "a".repeat(64);
const bundle = (path: string) => ({
  type: "evidence.bundle",
  actor: "impl",
  body: {
    bundleId: "b1",
    commands: [],
    artifacts: [{ path, sha256: sha, size: 1 }],
    env: { commit: "abc" },
    manifestHash: sha,
  },
});

describe("artifact paths", () => {
  it("keep ordinary names, including spaces and non-ASCII letters", () => {
    for (const ok of [
      "report.txt",
      "logs/npm test.log",
      "données/résumé.md",
      "日本/ファイル.txt",
      "emoji-👍.png",
    ])
      expect(ZRelativePath.safeParse(ok).success, ok).toBe(true);
  });

  it.each([
    ["a NUL byte", "logs/a\u0000.txt"],
    ["a newline", "a\nb.txt"],
    ["a carriage return", "report\r.txt"],
    ["a tab", "a\tb"],
    ["an escape sequence", "\u001b[31mred.txt"],
    ["DEL", "a\u007f"],
    ["a C1 control", "a\u0085b"],
    ["a line separator", "a\u2028b"],
    ["a right-to-left override", "invoice\u202Etxt.exe"],
    ["a bidi isolate", "a\u2066b"],
  ])("refuse %s", (_, bad) => {
    const r = ZRelativePath.safeParse(bad);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toMatch(/control character/);
    const ev = ZEventInput.safeParse(bundle(bad));
    expect(ev.success).toBe(false);
    expect(ev.error!.issues.map((i) => i.path.join("."))).toContain("body.artifacts.0.path");
  });
});

import { describe, expect, it } from "vitest";
import { unifiedDiff } from "./text-diff";

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => expect(unifiedDiff("a\nb\n", "a\nb\n", "f")).toBe(""));

  it("shows a new file as all additions", () => {
    expect(unifiedDiff("", "{\n}\n", "s.json")).toBe("--- /dev/null\n+++ s.json\n@@ -0,0 +1,2 @@\n+{\n+}\n");
  });

  it("shows changes with three lines of context, in separate hunks when far apart", () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const b = [...a];
    b[1] = "changed 2";
    b.splice(15, 0, "inserted");
    const d = unifiedDiff(`${a.join("\n")}\n`, `${b.join("\n")}\n`, "f");
    expect(d).toBe(
      [
        "--- f",
        "+++ f",
        "@@ -1,5 +1,5 @@",
        " line 1",
        "-line 2",
        "+changed 2",
        " line 3",
        " line 4",
        " line 5",
        "@@ -13,6 +13,7 @@",
        " line 13",
        " line 14",
        " line 15",
        "+inserted",
        " line 16",
        " line 17",
        " line 18",
        "",
      ].join("\n"),
    );
  });
});

import { describe, expect, it } from "vitest";
import { localPath } from "./local-path";

describe("localPath (where sign-in returns to)", () => {
  it("keeps local paths with their query", () => {
    expect(localPath("/pods/p1?tab=inbox")).toBe("/pods/p1?tab=inbox");
    expect(localPath(undefined)).toBe("/");
  });
  it("never leaves the site", () => {
    for (const evil of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "evil.example",
      "/\\/evil.example",
    ]) {
      expect(localPath(evil), evil).toBe("/");
    }
  });
});

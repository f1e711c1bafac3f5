import { describe, expect, it } from "vitest";
import { ZEventInput, NOTE_KINDS, ZRelativePath } from "./events";

describe("event wire schemas", () => {
  it("accepts a checkpoint with Completed / Next / Blocked", () => {
    const r = ZEventInput.safeParse({
      type: "checkpoint",
      actor: "a",
      body: { completed: ["x"], next: [], blocked: ["y"] },
    });
    expect(r.success).toBe(true);
  });
  it("requires all three checkpoint lists", () => {
    const r = ZEventInput.safeParse({ type: "checkpoint", actor: "a", body: { completed: [] } });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join("."))).toEqual(["body.next", "body.blocked"]);
  });
  it("accepts every note kind with its required fields, and keeps extra fields", () => {
    const required: Record<string, object> = {
      HYPOTHESIS: { test: "run the suite", budget: "10 min" },
      HYPERTHESIS: { blindSpot: "never ran on ARM", bound: "one CI job" },
      CONJECTURE: { claim: "c", test: "t", edge: "e", deltaO: "d", scope: "s" },
    };
    for (const kind of NOTE_KINDS) {
      const r = ZEventInput.parse({
        type: "note",
        actor: "a",
        body: { kind, text: "t", RUN_ID: "r1", ...required[kind] },
      });
      expect(r.body).toMatchObject({ kind, RUN_ID: "r1" });
    }
  });
  it("requires a hypothesis to carry its test and budget", () => {
    const r = ZEventInput.safeParse({
      type: "note",
      actor: "a",
      body: { kind: "HYPOTHESIS", text: "maybe" },
    });
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["body.test", "body.budget"]);
  });
  it("refuses unknown roles, bad ids and bad timestamps, naming the field", () => {
    const base = { type: "note", actor: "a", body: { kind: "STATUS", text: "t" } };
    const path = (v: object) => ZEventInput.safeParse({ ...base, ...v }).error?.issues[0]?.path.join(".");
    expect(path({ role: "boss" })).toBe("role");
    expect(path({ id: "not-a-uuid" })).toBe("id");
    expect(path({ ts: "yesterday" })).toBe("ts");
    expect(path({ actor: "" })).toBe("actor");
  });
  it("accepts only normalised relative artifact paths in an evidence bundle", () => {
    for (const ok of ["a.txt", "logs/0.log", "deep/er/file.tar.gz", ".hidden/x"])
      expect(ZRelativePath.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["", "/etc/passwd", "../up", "a/../b", "./a", "a//b", "a/", "C:/x", "a\\b"])
      expect(ZRelativePath.safeParse(bad).success, bad).toBe(false);
    const bundle = {
      type: "evidence.bundle",
      actor: "a",
      body: {
        bundleId: "b",
        commands: [],
        artifacts: [{ path: "../secret", sha256: "a".repeat(64), size: 1 }],
        env: { commit: "c" },
        manifestHash: "a".repeat(64),
      },
    };
    expect(ZEventInput.safeParse(bundle).error?.issues[0]?.path.join(".")).toBe("body.artifacts.0.path");
    const twice = { path: "a.txt", sha256: "a".repeat(64), size: 1 };
    const dup = ZEventInput.safeParse({ ...bundle, body: { ...bundle.body, artifacts: [twice, twice] } });
    expect(dup.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["body.artifacts", "each artifact path may appear once"],
    ]);
  });
});

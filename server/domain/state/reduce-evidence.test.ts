import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { failingGates } from "./reduce-evidence";
import { HASH, Tape } from "../../testing/reducer-tape";

const seed = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "testing", "seed-examples", name), "utf8"));

describe("evidence bundles", () => {
  it("are unique and pass when every command exited 0", () => {
    const t = Tape.team();
    expect(t.bundle("ok").evidence["ok"]).toMatchObject({
      passed: true,
      commandCount: 1,
      failedCommands: 0,
      env: { commit: "c1", tools: {} },
    });
    expect(t.bundle("bad", 2).evidence["bad"]!.passed).toBe(false);
    t.refuses("evidence_exists", "evidence.bundle", "impl", {
      bundleId: "ok",
      commands: [],
      artifacts: [],
      env: { commit: "c" },
      manifestHash: "b".repeat(64),
    });
  });

  it("pushed for a task (the envelope's taskId): linked both ways, and a failure blocks approving it", () => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "t1", description: "parser" });
    const body = (bundleId: string, exit_code = 0) => ({
      bundleId,
      commands: [{ command: "npm test", exit_code }],
      artifacts: [],
      env: { commit: "c1" },
      manifestHash: HASH,
    });
    const s = t.add("evidence.bundle", "impl", body("ev-1"), { taskId: "t1" });
    expect(s.tasks["t1"]!.evidenceIds).toEqual(["ev-1"]);
    expect(s.evidence["ev-1"]!.links.tasks).toEqual(["t1"]);
    t.add("evidence.bundle", "impl", body("ev-2", 1), { taskId: "t1" });
    expect(t.state.tasks["t1"]!.evidenceIds).toEqual(["ev-1", "ev-2"]);
    expect(failingGates(t.state, "t1")).toEqual(["evidence ev-2: 1 command(s) failed"]);
  });

  it("refuses a bundle for a task that does not exist, and keeps nothing of it", () => {
    const t = Tape.team();
    t.refuses(
      "unknown_task",
      "evidence.bundle",
      "impl",
      { bundleId: "ev-x", commands: [], artifacts: [], env: { commit: "c" }, manifestHash: HASH },
      { taskId: "task_404" },
    );
    expect(t.state.evidence["ev-x"]).toBeUndefined();
  });
});

describe("workcells and proofs", () => {
  const opened = (patch: (m: any) => void = () => {}) => {
    const t = Tape.team();
    t.add("task.added", "impl", { taskId: "42", description: "login endpoint" });
    const manifest = seed("manifest.json");
    patch(manifest);
    t.add("workcell.opened", "orch", { manifest });
    return t;
  };
  const proof = (patch: (p: any) => void = () => {}) => {
    const p = seed("proof.json");
    patch(p);
    return { proof: p };
  };

  it("opens a workcell once, linked to the task its issue names", () => {
    const t = opened();
    expect(t.state.tasks["42"]!.workcellIds).toEqual(["wc-42-20250115T143022Z"]);
    t.refuses("workcell_exists", "workcell.opened", "orch", { manifest: seed("manifest.json") });
  });

  it("takes a complete proof as written and projects it", () => {
    const s = opened().add("workcell.proof", "impl", proof());
    expect(s.workcells["wc-42-20250115T143022Z"]!.proof).toMatchObject({
      allPassed: true,
      failingGates: [],
      diffLines: 139,
      overDiffBudget: false,
      risk: "medium",
    });
  });

  it("checks the proof against itself and its manifest", () => {
    const t = opened();
    t.refuses(
      "unknown_workcell",
      "workcell.proof",
      "impl",
      proof((p) => (p.workcell_id = "wc-9")),
    );
    t.refuses(
      "proof_issue_mismatch",
      "workcell.proof",
      "impl",
      proof((p) => (p.issue_id = "43")),
    );
    t.refuses(
      "proof_inconsistent",
      "workcell.proof",
      "impl",
      proof((p) => (p.verification.gates.lint.passed = false)),
    );
    t.refuses(
      "proof_inconsistent",
      "workcell.proof",
      "impl",
      proof((p) => (p.verification.blocking_failures = ["lint"])),
    );
    t.refuses(
      "proof_inconsistent",
      "workcell.proof",
      "impl",
      proof((p) => (p.patch.diff_stats.files_changed = 4)),
    );
    t.refuses(
      "forbidden_paths_misreported",
      "workcell.proof",
      "impl",
      proof((p) => {
        p.patch.files_modified.push("src/auth/secrets.ts");
        p.patch.diff_stats.files_changed = 4;
      }),
    );
    t.add("workcell.proof", "impl", proof());
    t.refuses("proof_exists", "workcell.proof", "impl", proof());
  });

  it("a failing gate, a forbidden path or an oversized diff blocks approving the task", () => {
    const t = opened((m) => (m.max_diff_lines = 100));
    t.add("task.updated", "impl", { taskId: "42", status: "in_progress" });
    t.add(
      "workcell.proof",
      "impl",
      proof((p) => {
        p.status = "failed";
        p.verification.gates.test.passed = false;
        p.verification.all_passed = false;
        p.verification.blocking_failures = ["test"];
        p.patch.files_modified.push("src/auth/secrets.ts");
        p.patch.diff_stats.files_changed = 4;
        p.patch.forbidden_path_violations = ["src/auth/secrets.ts"];
      }),
    );
    const wc = t.state.workcells["wc-42-20250115T143022Z"]!.proof!;
    expect(wc).toMatchObject({
      failingGates: ["test"],
      forbiddenPathViolations: ["src/auth/secrets.ts"],
      overDiffBudget: true,
    });
    t.add("task.review_requested", "impl", { taskId: "42" });
    t.add("review", "rev", { taskId: "42", verdict: "approve" });
    t.refuses("failing_gate", "decision", "ana", {
      subject: { kind: "task", id: "42" },
      verdict: "approve",
      rationale: "ship",
    });
  });
});

// The examples the protocol documents (docs/protocol/) show, checked against the rules the code
// enforces: each example tape in examples/tapes/ is folded event by event through the real
// schemas and reducers and must be accepted whole, and the documents link only to files that
// exist. An example that stops being true fails here, not in a reader's terminal.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ZEventInput } from "./domain/events/event-schemas";
import { ZPlanJson, ZProof, ZTaskManifest } from "./domain/events/seed-formats";
import { Tape } from "./testing/reducer-tape";
import { headingAnchors } from "./testing/markdown-anchors";

const ROOT = resolve(import.meta.dirname, "..");
const example = (name: string) =>
  JSON.parse(readFileSync(join(ROOT, "examples", name), "utf8")) as Record<string, unknown>;
type TapeEvent = { type: string; actor: string; body?: object } & Record<string, unknown>;

/** Folds an example tape onto a fresh pod, as admin automation ("admin", no member) sets it up. */
function fold(name: string): Tape {
  const t = new Tape();
  for (const [i, { type, actor, body, ...extra }] of (
    example(`tapes/${name}`) as unknown as TapeEvent[]
  ).entries()) {
    try {
      t.add(type, actor, body ?? {}, extra);
    } catch (e) {
      throw new Error(`examples/tapes/${name}, event ${i} (${type}): ${(e as Error).message}`);
    }
  }
  return t;
}

describe("examples/, as the protocol documents use them", () => {
  it("the file formats parse as written", () => {
    expect(ZPlanJson.safeParse(example("plan.json")).success).toBe(true);
    expect(ZTaskManifest.safeParse(example("manifest.json")).success).toBe(true);
    expect(ZProof.safeParse(example("proof.json")).success).toBe(true);
  });

  it("the collaboration tape is accepted whole, and ends where its document says", () => {
    const t = fold("collaboration.json");
    const s = t.state;
    expect(s.status).toBe("active");
    expect(s.tasks.task_001!.status).toBe("done");
    expect(s.tasks.task_002!.status).toBe("in_progress");
    expect(s.runs["run-1"]!.status).toBe("committed");
    expect(s.escalations["esc-empty-input"]!.answer?.answer).toBe("empty document");
    expect(s.activeAgent).toBe("reviewer-1");
    expect(Object.keys(s.planBlocks)).toEqual([]);
    // The tape imports examples/plan.json as it is.
    const imported = t.events.find((e) => e.type === "plan.imported")!;
    expect(imported.body).toEqual({ plan: ZPlanJson.parse(example("plan.json")) });
  });

  it("the collaboration tape's signals are those docs/protocol/signals.md tells", () => {
    const { agents } = fold("collaboration.json").state.signals;
    const impl = agents["implementer-1"]!;
    expect(impl.implementer).toMatchObject({
      tasksApproved: 1,
      tasksRejected: 0,
      roundsToApproval: { sum: 1, count: 1 },
      evidencePassed: { n: 1, of: 1 },
    });
    expect(impl.cadence).toMatchObject({ onTime: 1, late: 0 });
    expect(impl.escalations).toMatchObject({ raised: 1, answered: 1, expired: 0 });
    const verdicts = { approve: 1, reject: 0, changes_requested: 0 };
    expect(agents["reviewer-1"]!.reviewer).toMatchObject({ reviews: 1, verdicts, overturned: 0 });
  });

  it("a workcell opens with examples/manifest.json on task_002 and takes examples/proof.json", () => {
    const t = fold("collaboration.json");
    t.add(
      "workcell.opened",
      "implementer-1",
      { manifest: example("manifest.json") },
      { role: "implementer" },
    );
    const s = t.add(
      "workcell.proof",
      "implementer-1",
      { proof: example("proof.json") },
      { role: "implementer" },
    );
    const id = example("manifest.json").workcell_id as string;
    expect(s.tasks.task_002!.workcellIds).toEqual([id]);
    const proof = { allPassed: true, forbiddenPathViolations: [], overDiffBudget: false };
    expect(s.workcells[id]!.proof).toMatchObject(proof);
  });

  it("the handoff TaskStep hands the turn to its destination_agent", () => {
    const t = fold("collaboration.json");
    const back = { to: "implementer-1", reason: "Approved; back to you for task_002." };
    t.add("handoff", "reviewer-1", back, { role: "reviewer" });
    const s = t.add("handoff", "implementer-1", example("handoff-step.json"), { role: "implementer" });
    expect(s.activeAgent).toBe("reviewer-1");
    expect(s.handoffs.at(-1)).toMatchObject({ from: "implementer-1", to: "reviewer-1" });
    const parsed = ZEventInput.parse({
      type: "handoff",
      actor: "implementer-1",
      body: example("handoff-step.json"),
    });
    expect(parsed.body).toMatchObject({ to: "reviewer-1", step: { agent_name: "implementer-1" } });
  });

  it("the contracting tape is accepted whole: escrow released after acceptance", () => {
    const s = fold("contracting.json").state;
    expect(s.jobs["job-1"]).toMatchObject({ status: "settled", escrow: "released" });
  });
});

describe("docs/protocol/", () => {
  const dir = join(ROOT, "docs", "protocol");
  const docs = readdirSync(dir).filter((f) => f.endsWith(".md"));

  it("links only to files of the repository that exist", () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(dir, doc), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith("#")) continue;
        const file = resolve(dirname(join(dir, doc)), target!.split("#")[0]!);
        if (!file.startsWith(ROOT) || !existsSync(file)) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  const anchors = (doc: string) => headingAnchors(readFileSync(join(dir, doc), "utf8"));

  it("every pointer into docs/protocol/, from any tracked file, names a document and a heading that exist", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
      .split("\0")
      .filter(Boolean);
    const broken: string[] = [];
    const check = (from: string, doc: string, anchor: string | undefined) => {
      if (!docs.includes(doc)) broken.push(`${from}: ${doc} does not exist`);
      else if (anchor && !anchors(doc).has(anchor)) broken.push(`${from}: ${doc} has no heading #${anchor}`);
    };
    for (const file of files.filter((f) => /\.(ts|tsx|mjs|md|prisma)$/.test(f))) {
      if (!existsSync(join(ROOT, file))) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const m of text.matchAll(/docs\/protocol\/([\w-]+\.md)(?:#([\w-]+))?/g)) check(file, m[1]!, m[2]);
      // Links between the documents themselves: (roles.md#decision-authority), (#idempotent-ids).
      if (file.startsWith("docs/protocol/")) {
        const doc = file.slice("docs/protocol/".length);
        for (const m of text.matchAll(/\]\(([\w-]+\.md)?#([\w-]+)\)/g)) check(file, m[1] ?? doc, m[2]);
      }
    }
    expect(broken).toEqual([]);
  });

  it("every document is listed in the index", () => {
    const index = readFileSync(join(dir, "README.md"), "utf8");
    expect(docs.filter((d) => d !== "README.md" && !index.includes(`](${d}`))).toEqual([]);
  });
});

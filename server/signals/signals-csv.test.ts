import { describe, expect, it } from "vitest";
import { emptyAgentSignals } from "../domain/signals/signal-kit";
import type { SignalsExport, SignalRates } from "../wire/signals";
import { parseCsv } from "../testing/parse-csv";
import { SIGNALS_CSV_COLUMNS, signalsCsv } from "./signals-csv";

const rates: SignalRates = {
  approvalRate: 2 / 3,
  meanRoundsToApproval: 1.5,
  evidencePassRate: null,
  proofFailRate: 0,
  reversalRate: null,
  rigorRate: 0.1 + 0.2,
  overturnRate: null,
  meanTimeToReviewMs: 61_000.25,
  cadenceAdherence: 1,
  escalationAnswerRate: null,
  meanTimeToAnswerMs: null,
  jobAcceptanceRate: null,
  totalTokens: 1_234_567,
  costUsd: 0.000123,
  toolCalls: 7,
};

function row(podName: string, agentId: string, displayName: string | null): SignalsExport["rows"][number] {
  const a = emptyAgentSignals(agentId);
  a.implementer.tasksApproved = 2;
  a.implementer.roundsToApproval = { sum: 3, count: 2 };
  a.implementer.evidencePassed = { n: 1, of: 4 };
  a.reviewer.verdicts.changes_requested = 5;
  a.usage.byModel = {
    "claude-opus": {
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 5,
      cacheWriteTokens: 1,
      costUsd: 0.1,
    },
    "claude-haiku": {
      inputTokens: 33,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.2,
    },
  };
  a.usage.tools = { Bash: { calls: 4, failed: 1 }, Edit: { calls: 3, failed: 0 } };
  return { ...a, rates, displayName, roles: ["implementer", "reviewer"], podId: "pod-1", podName };
}

describe("signals CSV", () => {
  it("parses back to the JSON's numbers and texts, whatever the names hold", () => {
    const rows = [row('Pod, "quoted"\r\nand broken', "bot-a", null), row("plain", "bot-b", "Bot B")];
    const parsed = parseCsv(signalsCsv(rows));
    expect(parsed[0]).toEqual(SIGNALS_CSV_COLUMNS.map(([name]) => name));
    expect(parsed).toHaveLength(3);
    rows.forEach((r, i) => {
      SIGNALS_CSV_COLUMNS.forEach(([name, read], c) => {
        const want = read(r);
        const cell = parsed[i + 1]![c]!;
        if (typeof want === "number") expect(Number(cell), name).toBe(want);
        else expect(cell, name).toBe(want ?? "");
      });
    });
    // Sums over the models and tools, not one of them.
    const col = (name: string) => parsed[1]![SIGNALS_CSV_COLUMNS.findIndex(([n]) => n === name)];
    expect(col("usage.inputTokens")).toBe("1033");
    expect(Number(col("usage.costUsd"))).toBe(0.1 + 0.2);
    expect(col("usage.toolCalls")).toBe("7");
    expect(col("roles")).toBe("implementer reviewer");
  });

  it("keeps a spreadsheet from running a name as a formula", () => {
    const [, cells] = parseCsv(signalsCsv([row('=HYPERLINK("http://x")', "bot", "+1")]));
    expect(cells![1]).toBe('\'=HYPERLINK("http://x")');
    expect(cells![3]).toBe("'+1");
  });

  it("ends every line with CRLF and writes only the header for no rows", () => {
    expect(signalsCsv([])).toBe(`${SIGNALS_CSV_COLUMNS.map(([n]) => n).join(",")}\r\n`);
  });
});

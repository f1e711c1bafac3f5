// How `podwatch hook` reads and prices an agent's transcript usage (hook-dialect.ts names each agent's).
import { costOf, operatorPrices, type TokenCounts } from "./model-prices";
import { spoolTranscriptUsage } from "./report-usage";
import type { Spool } from "./spool";
import type { LineCounter } from "./transcript-usage";

/**
 * An agent's transcript usage (`count` reads its lines: Claude Code's when absent), priced by the
 * operator's price file (PODWATCH_MODEL_PRICES), then the built-in table, then `fallback`'s.
 */
export const pricedUsage =
  (count?: LineCounter, fallback: (model: string, t: TokenCounts) => number | undefined = () => undefined) =>
  async (spool: Spool, payload: Record<string, unknown>, env: NodeJS.ProcessEnv) => {
    const prices = await operatorPrices(env);
    return spoolTranscriptUsage(spool, payload, undefined, {
      count,
      costOf: (model, t) => costOf(model, t, prices) ?? fallback(model, t),
    });
  };

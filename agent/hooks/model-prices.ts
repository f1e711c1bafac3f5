// The prices the hook puts on transcript usage: the list (server/domain/usage/model-prices.ts),
// after the operator's price file when PODWATCH_MODEL_PRICES names one. The file's parser loads
// zod, so it is imported only when there is a file to read (most hooks price nothing).
import { readFileSync } from "node:fs";
import type { PriceRow } from "../../server/wire/model-prices";

export { costOf, priceOf, type ModelPrice, type TokenCounts } from "../../server/wire/model-prices";

/** The operator's rows; throws a clear Error when the file is missing or malformed. */
export async function operatorPrices(env: Record<string, string | undefined>): Promise<PriceRow[]> {
  const path = env.PODWATCH_MODEL_PRICES?.trim();
  if (!path) return [];
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new Error(`PODWATCH_MODEL_PRICES: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  const { parseModelPriceFile } = await import("../../server/wire/model-price-file");
  return parseModelPriceFile(text, path);
}

// An operator's price file (PODWATCH_MODEL_PRICES: the path of a JSON file), for models the list
// does not price or prices the operator pays otherwise: `{ "<model id or prefix>": { "input": 4,
// "output": 20, "cacheWrite": 5, "cacheRead": 0.2 } }`, US dollars per million tokens. The server
// reads it at start and refuses to start on a bad one; `podwatch hook` reads it when it prices usage.
import { z } from "zod";
import type { PriceRow } from "./model-prices";

const ZDollars = z.number().min(0).max(100_000);
export const ZModelPriceFile = z.record(
  z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:/@[\]-]*$/, "a model id: letters, digits and . _ - : / @ [ ]"),
  z.strictObject({ input: ZDollars, output: ZDollars, cacheWrite: ZDollars, cacheRead: ZDollars }),
);

/** The file's rows, longest model id first (so "my-model-large" wins over "my-model"); throws a clear Error. */
export function parseModelPriceFile(text: string, path: string): PriceRow[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`PODWATCH_MODEL_PRICES: ${path} is not JSON (${(e as Error).message})`);
  }
  const parsed = ZModelPriceFile.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `PODWATCH_MODEL_PRICES: ${path} is not a price file:\n${parsed.error.issues
        .map((i) => `  ${i.path.join(".") || "(the file)"}: ${i.message}`)
        .join("\n")}`,
    );
  return Object.entries(parsed.data).sort(([a], [b]) => b.length - a.length);
}

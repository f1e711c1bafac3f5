import { readFileSync } from "node:fs";
import { UsageError } from "../sdk/errors";

/** A JSON document the user named on the command line ("-" for stdin). */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path === "-" ? 0 : path, "utf8");
  } catch (e) {
    throw new UsageError(
      `cannot read ${path}: ${(e as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (e as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${path} is not valid JSON: ${(e as Error).message}`);
  }
}

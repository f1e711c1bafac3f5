// compose.yaml as compose itself reads it: YAML with merge keys (<<), x- extension fields
// dropped, variables interpolated, then checked against our schema of the subset we use.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { ZCompose, type ComposeFile } from "./compose-schema";
import { interpolate } from "./interpolate";

export function readCompose(path: string, env: Record<string, string | undefined>): ComposeFile {
  const raw = parse(readFileSync(path, "utf8"), {
    merge: true,
    uniqueKeys: true,
    maxAliasCount: 100,
  }) as Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(raw).filter(([k]) => !k.startsWith("x-")));
  return ZCompose.parse(interpolate(fields, env));
}

// A POST to /mcp: one JSON-RPC message or a short batch, read within bounds
// before the MCP SDK parses it (the SDK's own cap is 4 MiB and 100 messages).
import type { IncomingMessage } from "node:http";
import { AppError } from "../domain/errors";
import { jsonRefusal, MAX_JSON_DEPTH, readBody } from "../shared/read-json";
import { jsonTextProblem } from "../shared/json-text";

/** A tool call's arguments are small; the largest is a proof.json. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;
/** Batches are allowed by older protocol versions; a client has no reason to send many calls at once. */
export const MCP_MAX_BATCH = 16;

export async function readMcpBody(req: IncomingMessage): Promise<unknown> {
  const bytes = await readBody(req, MCP_MAX_BODY_BYTES);
  const problem = jsonTextProblem(bytes, MAX_JSON_DEPTH);
  if (problem) throw jsonRefusal(problem);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    throw new AppError(400, "invalid_json", `request body is not valid JSON: ${(e as Error).message}`);
  }
  if (Array.isArray(value) && (value.length === 0 || value.length > MCP_MAX_BATCH)) {
    throw new AppError(
      400,
      "bad_batch",
      `a JSON-RPC batch holds 1 to ${MCP_MAX_BATCH} messages, not ${value.length}`,
    );
  }
  return value;
}

// The kit this process serves: packed once, on the first request for it, and kept in memory (about
// half a megabyte). A failed build is not kept: the next request tries again.
import { join } from "node:path";
import { buildAgentKit, type AgentKit } from "./build-agent-kit";

const ROOT = join(import.meta.dirname, "..", "..");
let pending: Promise<AgentKit> | undefined;

export function servedAgentKit(): Promise<AgentKit> {
  pending ??= buildAgentKit(ROOT).catch((e: unknown) => {
    pending = undefined;
    throw e;
  });
  return pending;
}

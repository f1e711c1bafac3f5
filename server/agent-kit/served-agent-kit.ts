// The kit this process serves: packed once, on the first request for it, and kept in memory (about
// half a megabyte). A failed build is kept for a minute, then the next request tries again: the
// door is public, and each try is seconds of esbuild's work.
import { join } from "node:path";
import { buildAgentKit, type AgentKit } from "./build-agent-kit";

const ROOT = join(import.meta.dirname, "..", "..");
const FAILED_BUILD_KEPT_MS = 60_000;
let pending: Promise<AgentKit> | undefined;

export function servedAgentKit(): Promise<AgentKit> {
  pending ??= buildAgentKit(ROOT).catch((e: unknown) => {
    setTimeout(() => (pending = undefined), FAILED_BUILD_KEPT_MS).unref();
    throw e;
  });
  return pending;
}

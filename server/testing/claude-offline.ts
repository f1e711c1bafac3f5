// The real Claude Code program and its environment for running offline against a fake of the
// model API: shared by the integration tests (real-cli.ts) and the browser specs (e2e/real-agents.ts),
// so it imports no test runner.
import { join } from "node:path";

/** The dev dependency's own `claude`. */
export const CLAUDE = join(import.meta.dirname, "..", "..", "node_modules", ".bin", "claude");

/** Claude Code offline against the fake at `url`: a dummy key, nothing reported, bypassPermissions allowed as root. */
export const claudeEnv = (url: string) => ({
  ANTHROPIC_BASE_URL: url,
  ANTHROPIC_API_KEY: "sk-ant-test-dummy",
  IS_SANDBOX: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_ERROR_REPORTING: "1",
});

// The layer rules of ARCHITECTURE.md are the linter's (eslint.layers.mjs): this shows each refusal
// on a few lines of code, linted with the repository's own configuration as if they were files in
// the named rooms, and that the same lines in a room allowed them pass.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: ROOT });
// The boundary probes need no walk of the import graph: without no-cycle each is a few milliseconds.
const noWalk = new ESLint({ cwd: ROOT, overrideConfig: { rules: { "import-x/no-cycle": "off" } } });

/** The messages of one rule for `code`, linted as the file at `file` (relative to the repository). */
async function messages(code: string, file: string, rule: string) {
  const [result] = await noWalk.lintText(code, { filePath: path.join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe("the layer rules", () => {
  it("refuse a domain file that imports the wire, and take one that imports the domain", async () => {
    const wire = await messages(
      'import type { TapeEvent } from "../wire/events";\nexport type E = TapeEvent;\n',
      "server/domain/layer-probe.ts",
      "boundaries/dependencies",
    );
    expect(wire).toEqual([expect.stringMatching(/"wire".*"domain"|"domain".*"wire"/)]);
    const domain = await messages(
      'import { ROLES } from "./vocabulary";\nexport const first = ROLES[0];\n',
      "server/domain/layer-probe.ts",
      "boundaries/dependencies",
    );
    expect(domain).toEqual([]);
  });

  it("refuse a use-case that imports an adapter, and take the same helper from the shared room", async () => {
    const adapter = await messages(
      'import { sendJson } from "../http/json";\nexport const send = sendJson;\n',
      "server/hooks/layer-probe.ts",
      "boundaries/dependencies",
    );
    expect(adapter).toEqual([expect.stringMatching(/"adapter"/)]);
    const action = await messages(
      'import { performOperation } from "../web/perform-operation";\nexport const a = performOperation;\n',
      "server/notify/layer-probe.ts",
      "boundaries/dependencies",
    );
    expect(action).toEqual([expect.stringMatching(/"adapter"/)]);
    const shared = await messages(
      'import { parseWith } from "../shared/read-json";\nexport const parse = parseWith;\n',
      "server/hooks/layer-probe.ts",
      "boundaries/dependencies",
    );
    expect(shared).toEqual([]);
  });

  it("refuse the agent kit outside remote MCP, which runs its tools on purpose", async () => {
    const code = 'import { PodAgent } from "../../agent/sdk/pod-agent";\nexport const A = PodAgent;\n';
    expect(await messages(code, "server/otlp/layer-probe.ts", "boundaries/dependencies")).toHaveLength(1);
    expect(await messages(code, "server/mcp/layer-probe.ts", "boundaries/dependencies")).toEqual([]);
  });

  describe("an import cycle", () => {
    // no-cycle follows imports on disk, so the two files are real: a folder of this run's own, removed after.
    const dir = mkdtempSync(path.join(ROOT, "server", "layer-cycle-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("is refused at both ends, and a type-only import back is not a cycle", async () => {
      writeFileSync(
        path.join(dir, "slack.ts"),
        'import { inboxUrl } from "./messages";\nexport const slackBody = (id: string) => inboxUrl(id);\n',
      );
      writeFileSync(
        path.join(dir, "messages.ts"),
        'import { slackBody } from "./slack";\nexport const inboxUrl = (id: string) => `/pods/${id}`;\nexport const body = slackBody;\n',
      );
      writeFileSync(
        path.join(dir, "typed.ts"),
        'import type { Body } from "./typed-user";\nexport const make = (): Body => ({ text: "" });\n',
      );
      writeFileSync(
        path.join(dir, "typed-user.ts"),
        'import { make } from "./typed";\nexport type Body = { text: string };\nexport const made = make();\n',
      );
      const results = await eslint.lintFiles([dir]);
      const cycles = Object.fromEntries(
        results.map((r) => [
          path.basename(r.filePath),
          r.messages.filter((m) => m.ruleId === "import-x/no-cycle").length,
        ]),
      );
      expect(cycles).toEqual({ "messages.ts": 1, "slack.ts": 1, "typed.ts": 0, "typed-user.ts": 0 });
    });
  });
});

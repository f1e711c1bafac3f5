import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { codexHooks } from "@/agent/hooks/codex-hooks";
import { mergeHooks } from "@/agent/hooks/settings-merge";
import { codexHooksJsonSnippet, codexHooksSnippet } from "./codex-snippets";

const input = { publicUrl: "http://127.0.0.1:3000/", podId: "p", token: "pwa_it's" };

describe("Codex snippets", () => {
  it("set both variables, install the kit from this server and then the hooks", () => {
    const lines = codexHooksSnippet(input).split("\n");
    expect(lines[0]).toBe(`export PODWATCH_URL=http://127.0.0.1:3000 PODWATCH_TOKEN='pwa_it'\\''s'`);
    const env = execFileSync(
      "sh",
      ["-c", `${lines[0]}; printf '%s\\n%s' "$PODWATCH_URL" "$PODWATCH_TOKEN"`],
      {
        encoding: "utf8",
      },
    );
    expect(env).toBe("http://127.0.0.1:3000\npwa_it's");
    expect(lines[1]).toBe('npm install -g "$PODWATCH_URL/agent/podwatch.tgz"');
    expect(lines[2]).toBe("podwatch hooks install --agent codex");
  });

  it("the hooks.json shown is what the install writes into an empty file", () => {
    expect(JSON.parse(codexHooksJsonSnippet())).toEqual(mergeHooks({}, codexHooks()));
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AGENT_KINDS } from "@/server/wire/vocabulary";
import { AGENT_KIND_LABELS, AgentKindBadge } from "./agent-kind-badge";

describe("the agent program on a held call's card", () => {
  it("names each agent kind, with a label a screen reader reads before it", () => {
    expect(AGENT_KINDS.map((k) => AGENT_KIND_LABELS[k])).toEqual(["Claude Code", "Codex", "Gemini CLI"]);
    const html = renderToStaticMarkup(createElement(AgentKindBadge, { kind: "gemini-cli" }));
    expect(html).toContain('data-agent-kind="gemini-cli"');
    expect(html.replace(/<[^>]+>/g, "")).toBe("Agent program: Gemini CLI");
    expect(html).toMatch(/<span class="sr-only">Agent program: <\/span>Gemini CLI<\/span>$/);
  });
});

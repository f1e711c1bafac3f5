import { describe, expect, it } from "vitest";
import { ourHooks } from "./our-hooks";

describe("ourHooks", () => {
  it("the HTTP form starts a session through `podwatch hook`: Claude Code runs no HTTP hook at SessionStart", () => {
    const hooks = ourHooks("http", "http://127.0.0.1:3000", "pw");
    expect(hooks.SessionStart).toEqual([{ hooks: [{ type: "command", command: "pw hook", timeout: 10 }] }]);
    expect(hooks.UserPromptSubmit![0]!.hooks[0]!.type).toBe("http");
    expect(hooks.Stop!.map((g) => g.hooks[0]!.type)).toEqual(["http", "command"]);
    expect(Object.keys(hooks)[0]).toBe("SessionStart");
  });
  it("the command form runs `podwatch hook` for every event", () => {
    const hooks = ourHooks("command", "");
    expect(Object.values(hooks).every((groups) => groups.every((g) => g.hooks[0]!.type === "command"))).toBe(
      true,
    );
  });
});

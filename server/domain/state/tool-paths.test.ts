import { describe, expect, it } from "vitest";
import { Tape } from "../../testing/reducer-tape";
import { matchesPattern, evaluateToolCall } from "./tool-policy";
import { mayMatchUnder, pathSubject } from "./tool-paths";

describe("what a path tool reads", () => {
  it("a file tool: its file, relative to the call's folder and absolute", () => {
    expect(pathSubject("Read", { file_path: "/w/app/src/a.ts" }, "/w/app")).toMatchObject({
      whole: "src/a.ts",
      absolute: "/w/app/src/a.ts",
      under: null,
      risky: false,
    });
    expect(pathSubject("NotebookEdit", { notebook_path: "nb/../x.ipynb" }, "/w/app")).toMatchObject({
      whole: "x.ipynb",
      absolute: "/w/app/x.ipynb",
    });
    expect(pathSubject("Write", { content: "x" }, "/w/app")).toBeNull();
    expect(pathSubject("Bash", { command: "ls" }, "/w/app")).toBeNull();
  });

  it("a search: the folder below its glob's fixed prefix, resolved; without a path, the call's folder", () => {
    expect(pathSubject("Glob", { pattern: "/etc/*" }, "/w/app")).toMatchObject({
      whole: "/etc/*",
      under: "/etc",
    });
    expect(pathSubject("Glob", { pattern: "src/**/*.ts" }, "/w/app")).toMatchObject({
      whole: "src/**/*.ts",
      under: "/w/app/src",
    });
    expect(pathSubject("Glob", { pattern: "*.conf", path: "/etc" }, "/w/app")).toMatchObject({
      whole: "/etc/*.conf",
      under: "/etc",
    });
    expect(pathSubject("Glob", { pattern: "../../etc/{passwd,shadow}" }, "/w/app")).toMatchObject({
      under: "/etc",
      risky: false,
    });
    expect(pathSubject("Grep", { pattern: "BEGIN", path: "/etc" }, "/w/app")).toMatchObject({
      whole: "/etc",
      under: "/etc",
    });
    expect(pathSubject("Grep", { pattern: "needle" }, "/w/app")).toMatchObject({
      whole: ".",
      under: "/w/app",
    });
    expect(pathSubject("LS", { path: "/w/app/../../etc" }, "/w/app")).toMatchObject({ under: "/etc" });
    // Each form as a folder too, so `/etc/*` covers a search of `/etc`.
    expect(pathSubject("LS", { path: "/etc" }, "/w/app")!.forms).toEqual(["/etc", "/etc/"]);
  });

  it("a `..` after a wildcard may climb anywhere: the whole disk, and never allowed", () => {
    expect(pathSubject("Glob", { pattern: "src/*/../../../etc/*" }, "/w/app")).toMatchObject({
      under: "/",
      risky: true,
    });
    expect(pathSubject("Glob", { pattern: "**/../x" }, "/w/app")).toMatchObject({ under: "/", risky: true });
    expect(pathSubject("Glob", { pattern: "src/{..,a}/x" }, "/w/app")).toMatchObject({
      under: "/",
      risky: true,
    });
  });
});

describe("mayMatchUnder: a deny or ask rule covers a search that would read what it names", () => {
  it("matches the folder itself, anything below it, and nothing beside it", () => {
    expect(mayMatchUnder("/etc/*", "/etc")).toBe(true);
    expect(mayMatchUnder("/etc", "/etc")).toBe(true);
    expect(mayMatchUnder("/etc/ssh/*", "/etc")).toBe(true);
    expect(mayMatchUnder("/etc/passwd", "/")).toBe(true);
    expect(mayMatchUnder("*.env|*/secrets/*", "/w/app")).toBe(true);
    expect(mayMatchUnder("/etc/*", "/etcetera")).toBe(false);
    expect(mayMatchUnder("/etc/*", "/w/app")).toBe(false);
    expect(mayMatchUnder("/etc/ssh/*", "/etc/ssl")).toBe(false);
    expect(mayMatchUnder("src/*", "/w/app")).toBe(false);
    expect(mayMatchUnder("/e?c/*", "/etc")).toBe(true);
    expect(mayMatchUnder("/etc\\*", "/etc")).toBe(false);
  });

  it("stays linear on a hostile pattern and a long folder", () => {
    expect(mayMatchUnder(`${"*a".repeat(400)}b`, `/${"a".repeat(4000)}`)).toBe(true);
    expect(matchesPattern("*", "x")).toBe(true);
  });
});

describe("path rules cover every tool that takes a path or a glob", () => {
  const policy = (rules: object[]) => {
    const t = Tape.team();
    t.add("agent.policy.set", "admin", { rules });
    return t.state;
  };
  const verdict = (s: ReturnType<typeof policy>, tool: string, input: object) =>
    evaluateToolCall(s, "impl", null, tool, input, "/w/app").action;

  it("deny /etc/* denies Read, Grep, LS and Glob of /etc — a path, a glob's prefix, or a folder searched", () => {
    const s = policy([
      {
        id: "etc",
        tool: "Read|Edit|Write|MultiEdit|NotebookEdit|Grep|Glob|LS",
        input: "/etc/*",
        action: "deny",
      },
    ]);
    expect(verdict(s, "Read", { file_path: "/etc/passwd" })).toBe("deny");
    expect(verdict(s, "NotebookEdit", { notebook_path: "/etc/x.ipynb", new_source: "" })).toBe("deny");
    expect(verdict(s, "Grep", { pattern: "root", path: "/etc" })).toBe("deny");
    expect(verdict(s, "LS", { path: "/etc" })).toBe("deny");
    expect(verdict(s, "Glob", { pattern: "/etc/*" })).toBe("deny");
    expect(verdict(s, "Glob", { pattern: "**/*", path: "/etc" })).toBe("deny");
    expect(verdict(s, "Glob", { pattern: "../../etc/*" })).toBe("deny");
    // A search above /etc reads it too.
    expect(verdict(s, "Grep", { pattern: "root", path: "/" })).toBe("deny");
    expect(verdict(s, "Glob", { pattern: "/*/passwd" })).toBe("deny");
    expect(verdict(s, "Glob", { pattern: "src/*/../../../../etc/*" })).toBe("deny");
    // Beside it: not this rule's.
    expect(verdict(s, "Grep", { pattern: "needle", path: "src" })).toBe("allow");
    expect(verdict(s, "Grep", { pattern: "needle" })).toBe("allow");
    expect(verdict(s, "Glob", { pattern: "src/**/*.ts" })).toBe("allow");
    expect(verdict(s, "LS", { path: "/etcetera" })).toBe("allow");
  });

  it("an ask rule on a file asks for a search that would read it", () => {
    const s = policy([{ id: "keys", tool: "*", input: "/home/dev/.ssh/*", action: "ask" }]);
    expect(verdict(s, "Grep", { pattern: "PRIVATE KEY", path: "/home/dev" })).toBe("ask");
    expect(verdict(s, "Glob", { pattern: "/home/*/.ssh/id_*" })).toBe("ask");
    expect(verdict(s, "Grep", { pattern: "x", path: "/home/other" })).toBe("allow");
  });

  it("an allow rule waves a search on only when all of it lies inside; outside asks for a search reaching out", () => {
    const s = policy([
      { id: "src", tool: "Grep|Glob|LS", input: "src/*", action: "allow" },
      { id: "out", tool: "Read|Grep|Glob|LS", input: "/w/app/*", outside: true, action: "ask" },
      { id: "rest", tool: "*", action: "deny" },
    ]);
    expect(verdict(s, "Grep", { pattern: "x", path: "src" })).toBe("allow");
    expect(verdict(s, "Glob", { pattern: "src/**/*.ts" })).toBe("allow");
    expect(verdict(s, "Glob", { pattern: "src/*/../../../etc/*" })).toBe("ask");
    expect(verdict(s, "Grep", { pattern: "x", path: "/" })).toBe("ask");
    expect(verdict(s, "LS", { path: "/w/app/.." })).toBe("ask");
    expect(verdict(s, "Grep", { pattern: "x", path: "docs" })).toBe("deny");
  });
});
